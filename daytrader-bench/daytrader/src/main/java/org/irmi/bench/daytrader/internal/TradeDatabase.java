package org.irmi.bench.daytrader.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import java.util.Random;

/**
 * The DayTrader schema, its population and the connection pool. One schema and one set of SQL
 * statements serve H2 and PostgreSQL: no vendor types, no reserved words as names
 * ({@code orders}, {@code openPrice}, {@code passwd}), {@code SELECT ... FOR UPDATE} for row locks.
 *
 * <p>The population follows the DayTrader specification: quotes {@code s:0}.. priced at a random
 * whole 1-200; users {@code uid:0}.. with password {@code xxx}, opening balance 200,000-299,999
 * ({@code uid:0} gets 1,000,000) and 0-10 holdings of 1-200 shares each. Like DayTrader's own
 * database builder, every seeded holding is a real completed buy (fee included), so the
 * consistency audit holds from the first second.
 */
public final class TradeDatabase {
    /** The embedded default: an in-memory H2 database that lives as long as the backend JVM. */
    public static final String EMBEDDED_H2_URL = "jdbc:h2:mem:daytrader;DB_CLOSE_DELAY=-1";

    static final List<String> TABLES = List.of("orders", "holding", "account", "accountprofile", "quote", "keygen");

    private static final List<String> DDL = List.of(
            "CREATE TABLE quote (symbol VARCHAR(250) PRIMARY KEY, companyName VARCHAR(250),"
                    + " volume DOUBLE PRECISION NOT NULL, price NUMERIC(14,2) NOT NULL, openPrice NUMERIC(14,2) NOT NULL,"
                    + " lowPrice NUMERIC(14,2) NOT NULL, highPrice NUMERIC(14,2) NOT NULL, priceChange DOUBLE PRECISION NOT NULL)",
            "CREATE TABLE accountprofile (userID VARCHAR(250) PRIMARY KEY, passwd VARCHAR(250), fullName VARCHAR(250),"
                    + " address VARCHAR(250), email VARCHAR(250), creditCard VARCHAR(250))",
            "CREATE TABLE account (accountID BIGINT PRIMARY KEY, creationDate TIMESTAMP, openBalance NUMERIC(14,2) NOT NULL,"
                    + " balance NUMERIC(14,2) NOT NULL, loginCount INTEGER NOT NULL, logoutCount INTEGER NOT NULL,"
                    + " lastLogin TIMESTAMP, profile_userID VARCHAR(250) NOT NULL UNIQUE)",
            "CREATE TABLE holding (holdingID BIGINT PRIMARY KEY, quantity DOUBLE PRECISION NOT NULL,"
                    + " purchasePrice NUMERIC(14,2) NOT NULL, purchaseDate TIMESTAMP, account_accountID BIGINT NOT NULL,"
                    + " quote_symbol VARCHAR(250) NOT NULL)",
            "CREATE TABLE orders (orderID BIGINT PRIMARY KEY, orderType VARCHAR(10) NOT NULL, orderStatus VARCHAR(12) NOT NULL,"
                    + " openDate TIMESTAMP, completionDate TIMESTAMP, quantity DOUBLE PRECISION NOT NULL,"
                    + " price NUMERIC(14,2) NOT NULL, orderFee NUMERIC(14,2) NOT NULL, account_accountID BIGINT NOT NULL,"
                    + " quote_symbol VARCHAR(250) NOT NULL, holding_holdingID BIGINT)",
            "CREATE TABLE keygen (keyname VARCHAR(40) PRIMARY KEY, keyval BIGINT NOT NULL)",
            "CREATE INDEX holding_account ON holding (account_accountID)",
            "CREATE INDEX orders_account ON orders (account_accountID)",
            "CREATE INDEX orders_holding ON orders (holding_holdingID)");

    private static final int BATCH = 1000;

    private TradeDatabase() {
    }

    /**
     * A pool on {@code jdbcUrl}; {@code schema} (may be null) becomes the connections' schema
     * (created if missing), which is how tests keep their tables apart on a shared PostgreSQL.
     */
    public static HikariDataSource pool(String jdbcUrl, String schema, int maxConnections) {
        if (schema != null) {
            createSchema(jdbcUrl, schema);
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        if (jdbcUrl.startsWith("jdbc:postgresql:") && !jdbcUrl.contains("user=")) {
            // The project's PostgreSQL runs with trust auth for user postgres.
            config.setUsername("postgres");
        }
        if (schema != null) {
            config.setSchema(schema);
        }
        config.setMaximumPoolSize(maxConnections);
        config.setMinimumIdle(Math.min(4, maxConnections));
        config.setPoolName("daytrader");
        config.setConnectionTimeout(30_000);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        return new HikariDataSource(config);
    }

    private static void createSchema(String jdbcUrl, String schema) {
        try (HikariDataSource ds = pool(jdbcUrl, null, 1); Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS " + checkedName(schema));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create schema " + schema + " on " + jdbcUrl + ": " + e.getMessage(), e);
        }
    }

    /** Drops {@code schema} and everything in it. */
    public static void dropSchema(String jdbcUrl, String schema) throws SQLException {
        try (HikariDataSource ds = pool(jdbcUrl, null, 1); Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + checkedName(schema) + " CASCADE");
        }
    }

    private static String checkedName(String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]{0,40}")) {
            throw new IllegalArgumentException("schema name must be letters, digits and _, was '" + name + "'");
        }
        return name;
    }

    /** Drops the DayTrader tables if present and creates them empty. */
    public static void createTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String table : TABLES) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
            for (String ddl : DDL) {
                s.execute(ddl);
            }
        }
    }

    /** Creates the tables and populates {@code users} users and {@code quotes} quotes, reproducibly from {@code seed}. */
    public static void createAndPopulate(javax.sql.DataSource dataSource, int users, int quotes, long seed)
            throws SQLException {
        if (users < 1 || quotes < 1) {
            throw new IllegalArgumentException("users and quotes must be >= 1, were " + users + " and " + quotes);
        }
        Random random = new Random(seed);
        Timestamp now = new Timestamp(System.currentTimeMillis());
        try (Connection c = dataSource.getConnection()) {
            createTables(c);
            c.setAutoCommit(false);
            BigDecimal[] prices = new BigDecimal[quotes];
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO quote (symbol, companyName, volume, price, openPrice,"
                    + " lowPrice, highPrice, priceChange) VALUES (?, ?, 0, ?, ?, ?, ?, 0)")) {
                for (int i = 0; i < quotes; i++) {
                    prices[i] = BigDecimal.valueOf(1 + random.nextInt(200)).setScale(2);
                    ps.setString(1, "s:" + i);
                    ps.setString(2, "S" + i + " Incorporated");
                    for (int col = 3; col <= 6; col++) {
                        ps.setBigDecimal(col, prices[i]);
                    }
                    ps.addBatch();
                    if ((i + 1) % BATCH == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            long holdingId = 0;
            long orderId = 0;
            try (PreparedStatement profile = c.prepareStatement("INSERT INTO accountprofile (userID, passwd, fullName, address,"
                    + " email, creditCard) VALUES (?, 'xxx', ?, ?, ?, ?)");
                 PreparedStatement account = c.prepareStatement("INSERT INTO account (accountID, creationDate, openBalance,"
                         + " balance, loginCount, logoutCount, lastLogin, profile_userID) VALUES (?, ?, ?, ?, 0, 0, ?, ?)");
                 PreparedStatement holding = c.prepareStatement("INSERT INTO holding (holdingID, quantity, purchasePrice,"
                         + " purchaseDate, account_accountID, quote_symbol) VALUES (?, ?, ?, ?, ?, ?)");
                 PreparedStatement order = c.prepareStatement("INSERT INTO orders (orderID, orderType, orderStatus, openDate,"
                         + " completionDate, quantity, price, orderFee, account_accountID, quote_symbol, holding_holdingID)"
                         + " VALUES (?, 'buy', 'completed', ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int u = 0; u < users; u++) {
                    String userId = "uid:" + u;
                    BigDecimal open = u == 0 ? new BigDecimal("1000000.00")
                            : BigDecimal.valueOf(200_000 + random.nextInt(100_000)).setScale(2);
                    BigDecimal balance = open;
                    int holdings = random.nextInt(11);
                    for (int h = 0; h < holdings; h++) {
                        int q = random.nextInt(quotes);
                        double quantity = 1 + random.nextInt(200);
                        balance = balance.add(TradeMath.balanceDelta("buy", prices[q], quantity, TradeMath.ORDER_FEE));
                        holding.setLong(1, holdingId);
                        holding.setDouble(2, quantity);
                        holding.setBigDecimal(3, prices[q]);
                        holding.setTimestamp(4, now);
                        holding.setLong(5, u);
                        holding.setString(6, "s:" + q);
                        holding.addBatch();
                        order.setLong(1, orderId++);
                        order.setTimestamp(2, now);
                        order.setTimestamp(3, now);
                        order.setDouble(4, quantity);
                        order.setBigDecimal(5, prices[q]);
                        order.setBigDecimal(6, TradeMath.ORDER_FEE);
                        order.setLong(7, u);
                        order.setString(8, "s:" + q);
                        order.setLong(9, holdingId++);
                        order.addBatch();
                    }
                    profile.setString(1, userId);
                    profile.setString(2, "User " + u);
                    profile.setString(3, u + " Market Street");
                    profile.setString(4, "uid" + u + "@daytrader.example");
                    profile.setString(5, String.format("%04d-%04d-%04d-%04d", u % 10000, 1111, 2222, 3333));
                    profile.addBatch();
                    account.setLong(1, u);
                    account.setTimestamp(2, now);
                    account.setBigDecimal(3, open);
                    account.setBigDecimal(4, balance);
                    account.setTimestamp(5, now);
                    account.setString(6, userId);
                    account.addBatch();
                    if ((u + 1) % BATCH == 0) {
                        flush(profile, account, holding, order);
                    }
                }
                flush(profile, account, holding, order);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO keygen (keyname, keyval) VALUES (?, ?)")) {
                for (Object[] row : new Object[][] {{"account", (long) users}, {"holding", holdingId}, {"order", orderId}}) {
                    ps.setString(1, (String) row[0]);
                    ps.setLong(2, (Long) row[1]);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
    }

    private static void flush(PreparedStatement... statements) throws SQLException {
        for (PreparedStatement ps : statements) {
            ps.executeBatch();
        }
    }
}
