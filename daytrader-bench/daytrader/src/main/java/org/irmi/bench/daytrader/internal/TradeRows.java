package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.irmi.bench.daytrader.AccountDataBean;
import org.irmi.bench.daytrader.AccountProfileDataBean;
import org.irmi.bench.daytrader.HoldingDataBean;
import org.irmi.bench.daytrader.OrderDataBean;
import org.irmi.bench.daytrader.QuoteDataBean;
import org.irmi.bench.daytrader.TradeException;

/**
 * The SQL that reads, locks ({@code FOR UPDATE}) and writes DayTrader's rows: accounts, profiles,
 * orders, holdings and quotes, each statement on the caller's connection and in its transaction.
 * The callers lock rows in the one global order (order, holding, account, quote) that keeps
 * concurrent trades from deadlocking each other. A row that must exist and does not is a
 * {@link TradeException} naming it.
 */
final class TradeRows {

    private TradeRows() {
    }

    /**
     * The account id of {@code userId}; with {@code forUpdate}, the account row is also locked
     * ({@code FOR UPDATE}) until the caller's transaction ends.
     */
    static long accountId(Connection c, String userId, boolean forUpdate) throws SQLException, TradeException {
        String sql = "SELECT accountID FROM account WHERE profile_userID = ?" + (forUpdate ? " FOR UPDATE" : "");
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, userId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new TradeException("no user " + userId);
                }
                return rs.getLong(1);
            }
        }
    }

    static void lockAccountById(Connection c, long accountId) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("SELECT accountID FROM account WHERE accountID = ? FOR UPDATE")) {
            ps.setLong(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new TradeException("no account " + accountId);
                }
            }
        }
    }

    static void addToBalance(Connection c, long accountId, BigDecimal delta) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE accountID = ?")) {
            ps.setBigDecimal(1, delta);
            ps.setLong(2, accountId);
            ps.executeUpdate();
        }
    }

    static AccountDataBean account(Connection c, String userId) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM account WHERE profile_userID = ?")) {
            ps.setString(1, userId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new TradeException("no user " + userId);
                }
                return new AccountDataBean(rs.getLong("accountID"), rs.getString("profile_userID"),
                        millis(rs.getTimestamp("creationDate")), rs.getBigDecimal("openBalance"), rs.getBigDecimal("balance"),
                        rs.getInt("loginCount"), rs.getInt("logoutCount"), millis(rs.getTimestamp("lastLogin")));
            }
        }
    }

    static AccountProfileDataBean profile(Connection c, String userId) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM accountprofile WHERE userID = ?")) {
            ps.setString(1, userId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new TradeException("no user " + userId);
                }
                return new AccountProfileDataBean(rs.getString("userID"), rs.getString("passwd"), rs.getString("fullName"),
                        rs.getString("address"), rs.getString("email"), rs.getString("creditCard"));
            }
        }
    }

    static void insertOrder(Connection c, long orderId, String type, String status, Timestamp now, double quantity,
                                    BigDecimal price, long accountId, String symbol, long holdingId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (orderID, orderType, orderStatus, openDate,"
                + " completionDate, quantity, price, orderFee, account_accountID, quote_symbol, holding_holdingID)"
                + " VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)")) {
            ps.setLong(1, orderId);
            ps.setString(2, type);
            ps.setString(3, status);
            ps.setTimestamp(4, now);
            ps.setDouble(5, quantity);
            ps.setBigDecimal(6, price);
            ps.setBigDecimal(7, TradeMath.ORDER_FEE);
            ps.setLong(8, accountId);
            ps.setString(9, symbol);
            if (holdingId > 0 || "sell".equals(type)) {
                ps.setLong(10, holdingId);
            } else {
                ps.setNull(10, java.sql.Types.BIGINT);
            }
            ps.executeUpdate();
        }
    }

    static void setStatus(Connection c, long orderId, String status, Timestamp now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET orderStatus = ?, completionDate = ? WHERE orderID = ?")) {
            ps.setString(1, status);
            ps.setTimestamp(2, now);
            ps.setLong(3, orderId);
            ps.executeUpdate();
        }
    }

    static OrderDataBean order(Connection c, long orderId) throws SQLException, TradeException {
        return orderQuery(c, "SELECT * FROM orders WHERE orderID = ?", orderId);
    }

    static OrderDataBean lockOrder(Connection c, long orderId) throws SQLException, TradeException {
        return orderQuery(c, "SELECT * FROM orders WHERE orderID = ? FOR UPDATE", orderId);
    }

    private static OrderDataBean orderQuery(Connection c, String sql, long orderId) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new TradeException("no order " + orderId);
                }
                return order(rs);
            }
        }
    }

    static List<OrderDataBean> orders(Connection c, long accountId, String status) throws SQLException {
        String sql = "SELECT * FROM orders WHERE account_accountID = ?" + (status == null ? "" : " AND orderStatus = ?")
                + " ORDER BY orderID DESC";
        List<OrderDataBean> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, accountId);
            if (status != null) {
                ps.setString(2, status);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(order(rs));
                }
            }
        }
        return out;
    }

    private static OrderDataBean order(ResultSet rs) throws SQLException {
        return new OrderDataBean(rs.getLong("orderID"), rs.getString("orderType"), rs.getString("orderStatus"),
                millis(rs.getTimestamp("openDate")), millis(rs.getTimestamp("completionDate")), rs.getDouble("quantity"),
                rs.getBigDecimal("price"), rs.getBigDecimal("orderFee"), rs.getLong("account_accountID"),
                rs.getString("quote_symbol"), rs.getLong("holding_holdingID"));
    }

    static HoldingDataBean lockHolding(Connection c, long holdingId) throws SQLException, TradeException {
        HoldingDataBean h = findHolding(c, holdingId, true);
        if (h == null) {
            throw new TradeException("no holding " + holdingId + " (already sold?)");
        }
        return h;
    }

    static HoldingDataBean findHolding(Connection c, long holdingId, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM holding WHERE holdingID = ?" + (lock ? " FOR UPDATE" : ""))) {
            ps.setLong(1, holdingId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? holding(rs) : null;
            }
        }
    }

    static HoldingDataBean holding(ResultSet rs) throws SQLException {
        return new HoldingDataBean(rs.getLong("holdingID"), rs.getLong("account_accountID"), rs.getString("quote_symbol"),
                rs.getDouble("quantity"), rs.getBigDecimal("purchasePrice"), millis(rs.getTimestamp("purchaseDate")));
    }

    static QuoteDataBean quote(Connection c, String symbol) throws SQLException, TradeException {
        QuoteDataBean q = findQuote(c, symbol, false);
        if (q == null) {
            throw new TradeException("no quote " + symbol);
        }
        return q;
    }

    static QuoteDataBean lockQuote(Connection c, String symbol) throws SQLException, TradeException {
        QuoteDataBean q = findQuote(c, symbol, true);
        if (q == null) {
            throw new TradeException("no quote " + symbol);
        }
        return q;
    }

    static QuoteDataBean findQuote(Connection c, String symbol, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM quote WHERE symbol = ?" + (lock ? " FOR UPDATE" : ""))) {
            ps.setString(1, symbol);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? quote(rs) : null;
            }
        }
    }

    static void updateQuote(Connection c, String symbol, BigDecimal newPrice, double shares) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE quote SET price = ?, priceChange = ?, lowPrice = ?, highPrice = ?,"
                + " volume = volume + ? WHERE symbol = ?")) {
            QuoteDataBean q = findQuote(c, symbol, false);
            ps.setBigDecimal(1, newPrice);
            ps.setDouble(2, newPrice.subtract(q.getOpen()).doubleValue());
            ps.setBigDecimal(3, q.getLow().min(newPrice));
            ps.setBigDecimal(4, q.getHigh().max(newPrice));
            ps.setDouble(5, shares);
            ps.setString(6, symbol);
            ps.executeUpdate();
        }
    }

    static List<QuoteDataBean> quotes(Connection c, String sql, int limit) throws SQLException {
        List<QuoteDataBean> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (limit > 0) {
                ps.setMaxRows(limit);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && (limit <= 0 || out.size() < limit)) {
                    out.add(quote(rs));
                }
            }
        }
        return out;
    }

    private static QuoteDataBean quote(ResultSet rs) throws SQLException {
        return new QuoteDataBean(rs.getString("symbol"), rs.getString("companyName"), rs.getBigDecimal("price"),
                rs.getBigDecimal("openPrice"), rs.getBigDecimal("lowPrice"), rs.getBigDecimal("highPrice"),
                rs.getDouble("priceChange"), rs.getDouble("volume"));
    }

    private static long millis(Timestamp t) {
        return t == null ? 0 : t.getTime();
    }
}
