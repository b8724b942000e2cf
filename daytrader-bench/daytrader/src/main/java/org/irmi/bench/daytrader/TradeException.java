package org.irmi.bench.daytrader;

/**
 * A business error of a trade operation (unknown user, wrong password, unknown symbol, an order in
 * the wrong state, a duplicate user id). The message says what was wrong; nothing was changed.
 */
public class TradeException extends Exception {
    private static final long serialVersionUID = 1L;

    public TradeException(String message) {
        super(message);
    }
}
