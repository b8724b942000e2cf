package org.irmi.bench.daytrader.internal;

import java.util.List;

/**
 * The DayTrader scenario's action weights. The standard mix, per 100 requests:
 * home 20, quote 40, login 0, logout 4, register 2, account 10, portfolio 12, buy 4, sell 4, update 4.
 * Login has weight 0 because a session with no user logs in first (so a logout is followed by a login).
 *
 * <p>{@link #pick} maps a uniform draw in {@code [0, total)} onto the cumulative weights: pure, so
 * tests check the exact mapping and the proportions.
 */
public final class ScenarioMix {
    /** The scenario's actions. */
    public enum Action { HOME, QUOTE, LOGIN, LOGOUT, REGISTER, ACCOUNT, PORTFOLIO, BUY, SELL, UPDATE }

    /** The specification's standard mix, in {@link Action} order. */
    public static final ScenarioMix STANDARD = new ScenarioMix(List.of(20, 40, 0, 4, 2, 10, 12, 4, 4, 4));

    private final int[] cumulative;

    public ScenarioMix(List<Integer> weights) {
        if (weights.size() != Action.values().length) {
            throw new IllegalArgumentException("need " + Action.values().length + " weights (" + List.of(Action.values())
                    + "), got " + weights.size());
        }
        cumulative = new int[weights.size()];
        int sum = 0;
        for (int i = 0; i < weights.size(); i++) {
            if (weights.get(i) < 0) {
                throw new IllegalArgumentException("weight of " + Action.values()[i] + " must be >= 0, was " + weights.get(i));
            }
            sum += weights.get(i);
            cumulative[i] = sum;
        }
        if (sum == 0) {
            throw new IllegalArgumentException("at least one weight must be > 0");
        }
    }

    /** The sum of the weights; draws range over {@code [0, total)}. */
    public int total() {
        return cumulative[cumulative.length - 1];
    }

    /** The action for a draw {@code 0 <= draw < total()}. */
    public Action pick(int draw) {
        if (draw < 0 || draw >= total()) {
            throw new IllegalArgumentException("draw must be in [0, " + total() + "), was " + draw);
        }
        for (int i = 0; i < cumulative.length; i++) {
            if (draw < cumulative[i]) {
                return Action.values()[i];
            }
        }
        throw new AssertionError("unreachable: draw below total");
    }
}
