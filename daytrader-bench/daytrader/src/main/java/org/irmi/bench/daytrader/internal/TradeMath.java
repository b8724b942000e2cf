package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The money arithmetic of trades, shared by the service and the audit so both compute the same
 * cents: an order's value is price x quantity rounded half-even to cents; a buy costs value + fee,
 * a sell pays value - fee.
 */
public final class TradeMath {
    /** DayTrader's order fee. */
    public static final BigDecimal ORDER_FEE = new BigDecimal("24.95");

    private TradeMath() {
    }

    /** price x quantity in cents. */
    public static BigDecimal value(BigDecimal price, double quantity) {
        return price.multiply(BigDecimal.valueOf(quantity)).setScale(2, RoundingMode.HALF_EVEN);
    }

    /** The change of the account balance a settled order causes: -(value + fee) for a buy, value - fee for a sell. */
    public static BigDecimal balanceDelta(String orderType, BigDecimal price, double quantity, BigDecimal fee) {
        BigDecimal value = value(price, quantity);
        return "buy".equals(orderType) ? value.add(fee).negate() : value.subtract(fee);
    }
}
