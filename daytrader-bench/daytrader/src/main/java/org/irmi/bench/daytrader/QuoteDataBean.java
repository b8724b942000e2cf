package org.irmi.bench.daytrader;

import java.io.Serializable;
import java.math.BigDecimal;

/** One QUOTE row; {@code change} is price minus opening price. */
public final class QuoteDataBean implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String symbol;
    private final String companyName;
    private final BigDecimal price;
    private final BigDecimal open;
    private final BigDecimal low;
    private final BigDecimal high;
    private final double change;
    private final double volume;

    public QuoteDataBean(String symbol, String companyName, BigDecimal price, BigDecimal open, BigDecimal low,
                         BigDecimal high, double change, double volume) {
        this.symbol = symbol;
        this.companyName = companyName;
        this.price = price;
        this.open = open;
        this.low = low;
        this.high = high;
        this.change = change;
        this.volume = volume;
    }

    public String getSymbol() { return symbol; }
    public String getCompanyName() { return companyName; }
    public BigDecimal getPrice() { return price; }
    public BigDecimal getOpen() { return open; }
    public BigDecimal getLow() { return low; }
    public BigDecimal getHigh() { return high; }
    public double getChange() { return change; }
    public double getVolume() { return volume; }

    @Override
    public String toString() {
        return "Quote[" + symbol + " " + price + " vol=" + volume + "]";
    }
}
