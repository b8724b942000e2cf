package org.irmi.bench.daytrader;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * One ORDERS row. {@code orderType} is {@code buy} or {@code sell}; {@code orderStatus} is one of
 * {@code open}, {@code processing}, {@code completed}, {@code closed}, {@code cancelled}.
 * {@code completionDateMillis} is 0 until the order completes; {@code holdingId} is 0 when none.
 */
public final class OrderDataBean implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long orderId;
    private final String orderType;
    private final String orderStatus;
    private final long openDateMillis;
    private final long completionDateMillis;
    private final double quantity;
    private final BigDecimal price;
    private final BigDecimal orderFee;
    private final long accountId;
    private final String symbol;
    private final long holdingId;

    public OrderDataBean(long orderId, String orderType, String orderStatus, long openDateMillis,
                         long completionDateMillis, double quantity, BigDecimal price, BigDecimal orderFee,
                         long accountId, String symbol, long holdingId) {
        this.orderId = orderId;
        this.orderType = orderType;
        this.orderStatus = orderStatus;
        this.openDateMillis = openDateMillis;
        this.completionDateMillis = completionDateMillis;
        this.quantity = quantity;
        this.price = price;
        this.orderFee = orderFee;
        this.accountId = accountId;
        this.symbol = symbol;
        this.holdingId = holdingId;
    }

    public long getOrderId() { return orderId; }
    public String getOrderType() { return orderType; }
    public String getOrderStatus() { return orderStatus; }
    public long getOpenDateMillis() { return openDateMillis; }
    public long getCompletionDateMillis() { return completionDateMillis; }
    public double getQuantity() { return quantity; }
    public BigDecimal getPrice() { return price; }
    public BigDecimal getOrderFee() { return orderFee; }
    public long getAccountId() { return accountId; }
    public String getSymbol() { return symbol; }
    public long getHoldingId() { return holdingId; }

    @Override
    public String toString() {
        return "Order[" + orderId + " " + orderType + " " + orderStatus + " " + symbol + " x" + quantity
                + " @" + price + "]";
    }
}
