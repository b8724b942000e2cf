package org.irmi.bench.daytrader;

import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.irmi.bench.daytrader.internal.TradeDatabase;
import org.irmi.bench.daytrader.internal.TradeMath;

/**
 * The consistency audit run after every DayTrader run. It reads the whole database in one
 * read-only transaction and counts the lost or inconsistent records, which must number zero:
 * <ol>
 *   <li><b>bad balances</b>: accounts whose balance differs from
 *       {@code openBalance - sum(buy value + fee) + sum(sell value - fee)} over their settled
 *       ({@code closed} or {@code completed}) orders, values in cents as the service computes them;</li>
 *   <li><b>bad holdings</b>: holdings not created by a settled buy of the same account, symbol and
 *       quantity; holdings a settled sell already sold; settled buys whose holding is missing
 *       although no settled sell sold it;</li>
 *   <li><b>stuck orders</b>: orders still {@code open} or {@code processing};</li>
 *   <li><b>duplicate ids</b>: an order, holding or account id present twice, two buys claiming one
 *       holding, two settled sells of one holding, or a KEYGEN value not beyond the largest id in
 *       use (the next block would hand out a used id).</li>
 * </ol>
 * Run it when the load has stopped (queued orders settled): an order settling mid-audit is not a fault.
 */
public final class ConsistencyAudit {
    private static final int MAX_EXAMPLES = 5;

    private ConsistencyAudit() {
    }

    /** Audits the database at {@code jdbcUrl} (schema may be null). */
    public static AuditReport run(String jdbcUrl, String schema) throws SQLException {
        try (HikariDataSource ds = TradeDatabase.pool(jdbcUrl, schema, 1)) {
            return run(ds);
        }
    }

    /** Audits the database behind {@code dataSource}. */
    public static AuditReport run(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                return audit(c);
            } finally {
                c.rollback();
            }
        }
    }

    private static AuditReport audit(Connection c) throws SQLException {
        List<String> examples = new ArrayList<>();
        long duplicates = 0;
        long stuck = 0;

        Map<Long, BigDecimal> expected = new HashMap<>();
        Map<Long, BigDecimal> actual = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT accountID, openBalance, balance FROM account");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long id = rs.getLong(1);
                if (expected.put(id, rs.getBigDecimal(2)) != null) {
                    duplicates += note(examples, "account id " + id + " used twice");
                }
                actual.put(id, rs.getBigDecimal(3));
            }
        }

        Map<Long, long[]> boughtHolding = new HashMap<>(); // holdingID -> {orderID, accountID, quantity bits}
        Map<Long, String> boughtSymbol = new HashMap<>();
        Set<Long> sold = new HashSet<>();
        Set<Long> orderIds = new HashSet<>();
        long orders = 0;
        long maxOrderId = -1;
        try (PreparedStatement ps = c.prepareStatement("SELECT orderID, orderType, orderStatus, price, quantity, orderFee,"
                + " account_accountID, quote_symbol, holding_holdingID FROM orders");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                orders++;
                long orderId = rs.getLong(1);
                maxOrderId = Math.max(maxOrderId, orderId);
                if (!orderIds.add(orderId)) {
                    duplicates += note(examples, "order id " + orderId + " used twice");
                }
                String type = rs.getString(2);
                String status = rs.getString(3);
                long accountId = rs.getLong(7);
                long holdingId = rs.getLong(9);
                boolean holdingNull = rs.wasNull();
                if ("open".equals(status) || "processing".equals(status)) {
                    stuck += note(examples, "order " + orderId + " stuck " + status);
                    continue;
                }
                if (!"closed".equals(status) && !"completed".equals(status)) {
                    continue; // cancelled: nothing changed hands
                }
                double quantity = rs.getDouble(5);
                BigDecimal delta = TradeMath.balanceDelta(type, rs.getBigDecimal(4), quantity, rs.getBigDecimal(6));
                expected.merge(accountId, delta, BigDecimal::add);
                if (holdingNull) {
                    continue;
                }
                if ("buy".equals(type)) {
                    if (boughtHolding.put(holdingId, new long[] {orderId, accountId, Double.doubleToLongBits(quantity)}) != null) {
                        duplicates += note(examples, "holding id " + holdingId + " claimed by two buys");
                    }
                    boughtSymbol.put(holdingId, rs.getString(8));
                } else if (!sold.add(holdingId)) {
                    duplicates += note(examples, "holding " + holdingId + " sold twice");
                }
            }
        }

        long badBalances = 0;
        for (Map.Entry<Long, BigDecimal> e : actual.entrySet()) {
            BigDecimal want = expected.get(e.getKey());
            if (want.compareTo(e.getValue()) != 0) {
                badBalances += note(examples, "account " + e.getKey() + " balance " + e.getValue() + " expected " + want);
            }
        }

        long badHoldings = 0;
        long holdings = 0;
        long maxHoldingId = -1;
        Set<Long> present = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT holdingID, account_accountID, quote_symbol, quantity FROM holding");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                holdings++;
                long id = rs.getLong(1);
                maxHoldingId = Math.max(maxHoldingId, id);
                if (!present.add(id)) {
                    duplicates += note(examples, "holding id " + id + " used twice");
                }
                long[] buy = boughtHolding.get(id);
                if (buy == null) {
                    badHoldings += note(examples, "holding " + id + " has no settled buy");
                } else if (buy[1] != rs.getLong(2) || !boughtSymbol.get(id).equals(rs.getString(3))
                        || Double.doubleToLongBits(rs.getDouble(4)) != buy[2]) {
                    badHoldings += note(examples, "holding " + id + " differs from its buy order " + buy[0]);
                } else if (sold.contains(id)) {
                    badHoldings += note(examples, "holding " + id + " still present after its sale");
                }
            }
        }
        for (Map.Entry<Long, long[]> e : boughtHolding.entrySet()) {
            maxHoldingId = Math.max(maxHoldingId, e.getKey());
            if (!present.contains(e.getKey()) && !sold.contains(e.getKey())) {
                badHoldings += note(examples, "holding " + e.getKey() + " of buy " + e.getValue()[0] + " lost");
            }
        }

        long maxAccountId = actual.keySet().stream().mapToLong(Long::longValue).max().orElse(-1);
        duplicates += checkKeygen(c, "order", maxOrderId, examples);
        duplicates += checkKeygen(c, "holding", maxHoldingId, examples);
        duplicates += checkKeygen(c, "account", maxAccountId, examples);
        return new AuditReport(actual.size(), orders, holdings, badBalances, badHoldings, stuck, duplicates, examples);
    }

    private static long checkKeygen(Connection c, String key, long maxUsed, List<String> examples) throws SQLException {
        if (maxUsed < 0) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT keyval FROM keygen WHERE keyname = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getLong(1) <= maxUsed) {
                    return note(examples, "keygen '" + key + "' would hand out used id " + maxUsed + " again");
                }
            }
        }
        return 0;
    }

    private static long note(List<String> examples, String example) {
        if (examples.size() < MAX_EXAMPLES * 4) {
            examples.add(example);
        }
        return 1;
    }
}
