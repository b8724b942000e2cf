package org.irmi.bench.daytrader;

import java.io.Serializable;
import java.math.BigDecimal;

/** One HOLDING row: {@code quantity} shares of {@code symbol} bought at {@code purchasePrice}. */
public final class HoldingDataBean implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long holdingId;
    private final long accountId;
    private final String symbol;
    private final double quantity;
    private final BigDecimal purchasePrice;
    private final long purchaseDateMillis;

    public HoldingDataBean(long holdingId, long accountId, String symbol, double quantity,
                           BigDecimal purchasePrice, long purchaseDateMillis) {
        this.holdingId = holdingId;
        this.accountId = accountId;
        this.symbol = symbol;
        this.quantity = quantity;
        this.purchasePrice = purchasePrice;
        this.purchaseDateMillis = purchaseDateMillis;
    }

    public long getHoldingId() { return holdingId; }
    public long getAccountId() { return accountId; }
    public String getSymbol() { return symbol; }
    public double getQuantity() { return quantity; }
    public BigDecimal getPurchasePrice() { return purchasePrice; }
    public long getPurchaseDateMillis() { return purchaseDateMillis; }

    @Override
    public String toString() {
        return "Holding[" + holdingId + " " + symbol + " x" + quantity + " @" + purchasePrice + "]";
    }
}
