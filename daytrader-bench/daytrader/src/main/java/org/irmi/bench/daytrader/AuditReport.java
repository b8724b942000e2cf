package org.irmi.bench.daytrader;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The result of a {@link ConsistencyAudit}: how many records it looked at, and the count of each
 * kind of lost or inconsistent record. Every count named {@code bad*}, {@code stuck*} or
 * {@code duplicate*} must be zero; {@link #isConsistent()} says whether they all are, and
 * {@link #getExamples()} lists up to a few offending records per check for the error message.
 */
public final class AuditReport implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long accounts;
    private final long orders;
    private final long holdings;
    private final long badBalances;
    private final long badHoldings;
    private final long stuckOrders;
    private final long duplicateIds;
    private final ArrayList<String> examples;

    public AuditReport(long accounts, long orders, long holdings, long badBalances, long badHoldings,
                       long stuckOrders, long duplicateIds, List<String> examples) {
        this.accounts = accounts;
        this.orders = orders;
        this.holdings = holdings;
        this.badBalances = badBalances;
        this.badHoldings = badHoldings;
        this.stuckOrders = stuckOrders;
        this.duplicateIds = duplicateIds;
        this.examples = new ArrayList<>(examples);
    }

    public long getAccounts() { return accounts; }
    public long getOrders() { return orders; }
    public long getHoldings() { return holdings; }
    /** Accounts whose balance is not opening balance - buys - fees + sells. */
    public long getBadBalances() { return badBalances; }
    /** Holdings without their completed buy, completed buys whose holding is missing or different, sold holdings still present. */
    public long getBadHoldings() { return badHoldings; }
    /** Orders still open or processing. */
    public long getStuckOrders() { return stuckOrders; }
    /** Ids used twice, or ids the key generator would hand out again. */
    public long getDuplicateIds() { return duplicateIds; }
    public List<String> getExamples() { return examples; }

    /** True when every inconsistency count is zero. */
    public boolean isConsistent() {
        return badBalances == 0 && badHoldings == 0 && stuckOrders == 0 && duplicateIds == 0;
    }

    @Override
    public String toString() {
        return "audit " + (isConsistent() ? "OK" : "FAILED") + ": accounts=" + accounts + " orders=" + orders
                + " holdings=" + holdings + " badBalances=" + badBalances + " badHoldings=" + badHoldings
                + " stuckOrders=" + stuckOrders + " duplicateIds=" + duplicateIds
                + (examples.isEmpty() ? "" : " e.g. " + examples);
    }
}
