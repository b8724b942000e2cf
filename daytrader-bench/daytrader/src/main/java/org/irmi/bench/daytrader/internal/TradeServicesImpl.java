package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.rmi.RemoteException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.irmi.bench.daytrader.AccountDataBean;
import org.irmi.bench.daytrader.AccountProfileDataBean;
import org.irmi.bench.daytrader.AuditReport;
import org.irmi.bench.daytrader.ConsistencyAudit;
import org.irmi.bench.daytrader.HoldingDataBean;
import org.irmi.bench.daytrader.LatencySummary;
import org.irmi.bench.daytrader.MarketSummaryDataBean;
import org.irmi.bench.daytrader.OrderDataBean;
import org.irmi.bench.daytrader.QuoteDataBean;
import org.irmi.bench.daytrader.SecondSample;
import org.irmi.bench.daytrader.TradeException;
import org.irmi.bench.daytrader.TradeServices;

/**
 * The backend: every {@link TradeServices} operation as plain JDBC on a pooled {@link DataSource}.
 *
 * <p>Atomicity: a buy or sell changes the balance, the holding, the order and the quote in one
 * transaction. Rows are locked in one global order (order, holding, account, quote) so concurrent
 * trades cannot deadlock each other; a transaction the database still aborts (serialization failure,
 * deadlock, lock timeout) is retried up to {@value #ATTEMPTS} times. Ids come from the
 * {@link KeyGenerator}, taken before the transaction opens.
 *
 * <p>Every operation records its execution time and outcome in the {@link TimeSeriesRecorder}
 * under its method name. THREAD-SAFE: called by the ORB's dispatch threads.
 */
public final class TradeServicesImpl implements TradeServices {
    /** How often a transaction is tried when the database aborts it for concurrency. */
    static final int ATTEMPTS = 3;
    static final long DEFAULT_POISON_MILLIS = 4_000;
    static final int POISON_ARRAY_BYTES = 10 * 1024;
    private static final long SUMMARY_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final int TOP_MOVERS = 5;
    private static final int TSIA_QUOTES = 20;

    private final DataSource dataSource;
    private final KeyGenerator keys;
    private final TimeSeriesRecorder recorder;
    private final LongSupplier nanoClock;
    private final LongSupplier wallMillis;
    private final Executor orderWorker;
    private final AtomicInteger pendingOrders = new AtomicInteger();
    private final AtomicReference<CachedSummary> summary = new AtomicReference<>();
    /** Keeps the poison operation's arrays reachable for a moment so the allocation cannot be optimized away. */
    private final Object[] poisonKeep = new Object[16];

    /** A backend with the default order worker: two threads, 10,000 queued orders, then the caller completes its own. */
    public TradeServicesImpl(DataSource dataSource, TimeSeriesRecorder recorder, LongSupplier nanoClock,
                             LongSupplier wallMillis) {
        this(dataSource, recorder, nanoClock, wallMillis, new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(10_000), r -> {
                    Thread t = new Thread(r, "daytrader-order-worker");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.CallerRunsPolicy()));
    }

    /** A backend whose asynchronous orders run on {@code orderWorker} (tests pass one they drive by hand). */
    public TradeServicesImpl(DataSource dataSource, TimeSeriesRecorder recorder, LongSupplier nanoClock,
                             LongSupplier wallMillis, Executor orderWorker) {
        this.dataSource = dataSource;
        this.keys = new KeyGenerator(dataSource, KeyGenerator.DEFAULT_BLOCK_SIZE);
        this.recorder = recorder;
        this.nanoClock = nanoClock;
        this.wallMillis = wallMillis;
        this.orderWorker = orderWorker;
    }

    public TimeSeriesRecorder recorder() {
        return recorder;
    }

    /** Stops the asynchronous order worker after it finishes the queued orders (bounded wait). */
    public void shutdown() throws InterruptedException {
        if (orderWorker instanceof ExecutorService service) {
            service.shutdown();
            service.awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    /** Orders queued for asynchronous completion and not yet settled. */
    public int pendingOrders() {
        return pendingOrders.get();
    }

    // ------------------------------------------------------------------ trades

    @Override
    public OrderDataBean buy(String userId, String symbol, double quantity, int mode) throws RemoteException, TradeException {
        return timed("buy", () -> {
            requirePositive(quantity);
            long orderId = keys.next("order");
            long holdingId = keys.next("holding");
            OrderDataBean order = tx(c -> {
                long accountId = lockAccount(c, userId);
                BigDecimal price = quote(c, symbol).getPrice();
                Timestamp now = now();
                insertOrder(c, orderId, "buy", "open", now, quantity, price, accountId, symbol, 0);
                if (mode == SYNCH) {
                    settleBuy(c, orderId, accountId, symbol, quantity, price, holdingId, now);
                }
                return order(c, orderId);
            });
            if (mode != SYNCH) {
                enqueue(orderId, mode == ASYNCH_2PHASE);
            }
            return order;
        });
    }

    @Override
    public OrderDataBean sell(String userId, long holdingId, int mode) throws RemoteException, TradeException {
        return timed("sell", () -> {
            long orderId = keys.next("order");
            OrderDataBean order = tx(c -> {
                HoldingDataBean holding = lockHolding(c, holdingId);
                long accountId = lockAccount(c, userId);
                if (holding.getAccountId() != accountId) {
                    throw new TradeException("holding " + holdingId + " does not belong to " + userId);
                }
                BigDecimal price = quote(c, holding.getSymbol()).getPrice();
                Timestamp now = now();
                insertOrder(c, orderId, "sell", "open", now, holding.getQuantity(), price, accountId,
                        holding.getSymbol(), holdingId);
                if (mode == SYNCH) {
                    settleSell(c, orderId, accountId, holding, price, now);
                }
                return order(c, orderId);
            });
            if (mode != SYNCH) {
                enqueue(orderId, mode == ASYNCH_2PHASE);
            }
            return order;
        });
    }

    @Override
    public void queueOrder(long orderId, boolean twoPhase) throws RemoteException, TradeException {
        timed("queueOrder", () -> {
            OrderDataBean order = tx(c -> order(c, orderId));
            if (!isOpen(order)) {
                throw new TradeException("order " + orderId + " is " + order.getOrderStatus() + ", only open orders can be queued");
            }
            enqueue(orderId, twoPhase);
            return null;
        });
    }

    @Override
    public OrderDataBean completeOrder(long orderId, boolean twoPhase) throws RemoteException, TradeException {
        return timed("completeOrder", () -> complete(orderId));
    }

    private OrderDataBean complete(long orderId) throws SQLException, TradeException {
        long holdingId = keys.next("holding");
        return tx(c -> {
            OrderDataBean order = lockOrder(c, orderId);
            if (!isOpen(order)) {
                throw new TradeException("order " + orderId + " is " + order.getOrderStatus() + ", cannot complete it");
            }
            Timestamp now = now();
            if ("buy".equals(order.getOrderType())) {
                lockAccountById(c, order.getAccountId());
                settleBuy(c, orderId, order.getAccountId(), order.getSymbol(), order.getQuantity(), order.getPrice(),
                        holdingId, now);
            } else {
                HoldingDataBean holding = findHolding(c, order.getHoldingId(), true);
                if (holding == null) {
                    // Sold meanwhile by another order: nothing to sell, nothing changes hands.
                    setStatus(c, orderId, "cancelled", now);
                } else {
                    lockAccountById(c, order.getAccountId());
                    settleSell(c, orderId, order.getAccountId(), holding, order.getPrice(), now);
                }
            }
            return order(c, orderId);
        });
    }

    @Override
    public void cancelOrder(long orderId, boolean twoPhase) throws RemoteException, TradeException {
        timed("cancelOrder", () -> tx(c -> {
            OrderDataBean order = lockOrder(c, orderId);
            if (!isOpen(order)) {
                throw new TradeException("order " + orderId + " is " + order.getOrderStatus() + ", cannot cancel it");
            }
            setStatus(c, orderId, "cancelled", now());
            return null;
        }));
    }

    @Override
    public void orderCompleted(String userId, long orderId) throws RemoteException, TradeException {
        timed("orderCompleted", () -> tx(c -> {
            long accountId = accountId(c, userId);
            OrderDataBean order = lockOrder(c, orderId);
            if (order.getAccountId() != accountId) {
                throw new TradeException("order " + orderId + " does not belong to " + userId);
            }
            if ("closed".equals(order.getOrderStatus())) {
                try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET orderStatus = 'completed' WHERE orderID = ?")) {
                    ps.setLong(1, orderId);
                    ps.executeUpdate();
                }
            }
            return null;
        }));
    }

    private void settleBuy(Connection c, long orderId, long accountId, String symbol, double quantity, BigDecimal price,
                           long holdingId, Timestamp now) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO holding (holdingID, quantity, purchasePrice, purchaseDate,"
                + " account_accountID, quote_symbol) VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setLong(1, holdingId);
            ps.setDouble(2, quantity);
            ps.setBigDecimal(3, price);
            ps.setTimestamp(4, now);
            ps.setLong(5, accountId);
            ps.setString(6, symbol);
            ps.executeUpdate();
        }
        addToBalance(c, accountId, TradeMath.balanceDelta("buy", price, quantity, TradeMath.ORDER_FEE));
        tradeQuote(c, symbol, quantity);
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET orderStatus = 'closed', completionDate = ?,"
                + " holding_holdingID = ? WHERE orderID = ?")) {
            ps.setTimestamp(1, now);
            ps.setLong(2, holdingId);
            ps.setLong(3, orderId);
            ps.executeUpdate();
        }
    }

    private void settleSell(Connection c, long orderId, long accountId, HoldingDataBean holding, BigDecimal price,
                            Timestamp now) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM holding WHERE holdingID = ?")) {
            ps.setLong(1, holding.getHoldingId());
            ps.executeUpdate();
        }
        addToBalance(c, accountId, TradeMath.balanceDelta("sell", price, holding.getQuantity(), TradeMath.ORDER_FEE));
        tradeQuote(c, holding.getSymbol(), holding.getQuantity());
        setStatus(c, orderId, "closed", now);
    }

    /** A trade moves the price by a random factor of 0.9-1.1 (up from below 1, down from above 400) and adds the volume. */
    private void tradeQuote(Connection c, String symbol, double shares) throws SQLException, TradeException {
        BigDecimal price = lockQuote(c, symbol).getPrice();
        double factor = 0.9 + ThreadLocalRandom.current().nextInt(21) / 100.0;
        if (price.compareTo(BigDecimal.ONE) < 0) {
            factor = 1.25;
        } else if (price.compareTo(BigDecimal.valueOf(400)) > 0) {
            factor = 0.75;
        }
        BigDecimal newPrice = price.multiply(BigDecimal.valueOf(factor)).setScale(2, RoundingMode.HALF_EVEN)
                .max(new BigDecimal("0.01"));
        updateQuote(c, symbol, newPrice, shares);
    }

    private void enqueue(long orderId, boolean twoPhase) {
        pendingOrders.incrementAndGet();
        orderWorker.execute(() -> {
            try {
                complete(orderId);
            } catch (TradeException e) {
                // Cancelled or completed by a client first: nothing left to do.
            } catch (SQLException | RuntimeException e) {
                System.err.println("daytrader: asynchronous completion of order " + orderId + " failed: " + e);
            } finally {
                pendingOrders.decrementAndGet();
            }
        });
    }

    // ------------------------------------------------------------------ orders, holdings, quotes

    @Override
    public List<OrderDataBean> getOrders(String userId) throws RemoteException, TradeException {
        return timed("getOrders", () -> tx(c -> orders(c, accountId(c, userId), null)));
    }

    @Override
    public List<OrderDataBean> getClosedOrders(String userId) throws RemoteException, TradeException {
        return timed("getClosedOrders", () -> tx(c -> {
            long accountId = accountId(c, userId);
            List<OrderDataBean> closed = orders(c, accountId, "closed");
            if (!closed.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET orderStatus = 'completed'"
                        + " WHERE account_accountID = ? AND orderStatus = 'closed'")) {
                    ps.setLong(1, accountId);
                    ps.executeUpdate();
                }
            }
            return closed;
        }));
    }

    @Override
    public QuoteDataBean createQuote(String symbol, String companyName, BigDecimal price) throws RemoteException, TradeException {
        return timed("createQuote", () -> tx(c -> {
            if (findQuote(c, symbol, false) != null) {
                throw new TradeException("quote " + symbol + " already exists");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO quote (symbol, companyName, volume, price, openPrice,"
                    + " lowPrice, highPrice, priceChange) VALUES (?, ?, 0, ?, ?, ?, ?, 0)")) {
                ps.setString(1, symbol);
                ps.setString(2, companyName);
                for (int i = 3; i <= 6; i++) {
                    ps.setBigDecimal(i, price.setScale(2, RoundingMode.HALF_EVEN));
                }
                ps.executeUpdate();
            }
            return quote(c, symbol);
        }));
    }

    @Override
    public QuoteDataBean getQuote(String symbol) throws RemoteException, TradeException {
        return timed("getQuote", () -> tx(c -> quote(c, symbol)));
    }

    @Override
    public List<QuoteDataBean> getAllQuotes() throws RemoteException {
        try {
            return timed("getAllQuotes", () -> tx(c -> quotes(c, "SELECT * FROM quote ORDER BY symbol", -1)));
        } catch (TradeException e) {
            throw new RemoteException("getAllQuotes: " + e.getMessage());
        }
    }

    @Override
    public QuoteDataBean updateQuotePriceVolume(String symbol, BigDecimal newPrice, double sharesTraded)
            throws RemoteException, TradeException {
        return timed("updateQuotePriceVolume", () -> tx(c -> {
            lockQuote(c, symbol);
            updateQuote(c, symbol, newPrice.setScale(2, RoundingMode.HALF_EVEN), sharesTraded);
            return quote(c, symbol);
        }));
    }

    @Override
    public List<HoldingDataBean> getHoldings(String userId) throws RemoteException, TradeException {
        return timed("getHoldings", () -> tx(c -> {
            long accountId = accountId(c, userId);
            List<HoldingDataBean> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM holding WHERE account_accountID = ? ORDER BY holdingID")) {
                ps.setLong(1, accountId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(holding(rs));
                    }
                }
            }
            return out;
        }));
    }

    @Override
    public HoldingDataBean getHolding(long holdingId) throws RemoteException, TradeException {
        return timed("getHolding", () -> tx(c -> {
            HoldingDataBean h = findHolding(c, holdingId, false);
            if (h == null) {
                throw new TradeException("no holding " + holdingId);
            }
            return h;
        }));
    }

    @Override
    public MarketSummaryDataBean getMarketSummary() throws RemoteException {
        try {
            return timed("getMarketSummary", () -> {
                long nowNanos = nanoClock.getAsLong();
                CachedSummary cached = summary.get();
                if (cached != null && nowNanos - cached.computedNanos < SUMMARY_REFRESH_NANOS) {
                    return cached.summary;
                }
                MarketSummaryDataBean fresh = tx(this::computeSummary);
                summary.set(new CachedSummary(fresh, nowNanos));
                return fresh;
            });
        } catch (TradeException e) {
            throw new RemoteException("getMarketSummary: " + e.getMessage());
        }
    }

    private MarketSummaryDataBean computeSummary(Connection c) throws SQLException {
        BigDecimal tsia = BigDecimal.ZERO;
        BigDecimal openTsia = BigDecimal.ZERO;
        int n = 0;
        try (PreparedStatement ps = c.prepareStatement("SELECT price, openPrice FROM quote WHERE symbol = ?")) {
            for (int i = 0; i < TSIA_QUOTES; i++) {
                ps.setString(1, "s:" + i);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        tsia = tsia.add(rs.getBigDecimal(1));
                        openTsia = openTsia.add(rs.getBigDecimal(2));
                        n++;
                    }
                }
            }
        }
        if (n > 0) {
            tsia = tsia.divide(BigDecimal.valueOf(n), 2, RoundingMode.HALF_EVEN);
            openTsia = openTsia.divide(BigDecimal.valueOf(n), 2, RoundingMode.HALF_EVEN);
        }
        double volume;
        try (PreparedStatement ps = c.prepareStatement("SELECT SUM(volume) FROM quote"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            volume = rs.getDouble(1);
        }
        List<QuoteDataBean> gainers = quotes(c, "SELECT * FROM quote ORDER BY priceChange DESC, symbol", TOP_MOVERS);
        List<QuoteDataBean> losers = quotes(c, "SELECT * FROM quote ORDER BY priceChange ASC, symbol", TOP_MOVERS);
        return new MarketSummaryDataBean(tsia, openTsia, volume, gainers, losers, wallMillis.getAsLong());
    }

    // ------------------------------------------------------------------ accounts

    @Override
    public AccountDataBean getAccountData(String userId) throws RemoteException, TradeException {
        return timed("getAccountData", () -> tx(c -> account(c, userId)));
    }

    @Override
    public AccountProfileDataBean getAccountProfileData(String userId) throws RemoteException, TradeException {
        return timed("getAccountProfileData", () -> tx(c -> profile(c, userId)));
    }

    @Override
    public AccountProfileDataBean updateAccountProfile(AccountProfileDataBean p) throws RemoteException, TradeException {
        return timed("updateAccountProfile", () -> tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE accountprofile SET passwd = ?, fullName = ?, address = ?,"
                    + " email = ?, creditCard = ? WHERE userID = ?")) {
                ps.setString(1, p.getPassword());
                ps.setString(2, p.getFullName());
                ps.setString(3, p.getAddress());
                ps.setString(4, p.getEmail());
                ps.setString(5, p.getCreditCard());
                ps.setString(6, p.getUserId());
                if (ps.executeUpdate() == 0) {
                    throw new TradeException("no user " + p.getUserId());
                }
            }
            return profile(c, p.getUserId());
        }));
    }

    @Override
    public AccountDataBean login(String userId, String password) throws RemoteException, TradeException {
        return timed("login", () -> tx(c -> {
            AccountProfileDataBean profile = profile(c, userId);
            if (!profile.getPassword().equals(password)) {
                throw new TradeException("wrong password for " + userId);
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE account SET loginCount = loginCount + 1, lastLogin = ?"
                    + " WHERE profile_userID = ?")) {
                ps.setTimestamp(1, now());
                ps.setString(2, userId);
                ps.executeUpdate();
            }
            return account(c, userId);
        }));
    }

    @Override
    public void logout(String userId) throws RemoteException, TradeException {
        timed("logout", () -> tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE account SET logoutCount = logoutCount + 1 WHERE profile_userID = ?")) {
                ps.setString(1, userId);
                if (ps.executeUpdate() == 0) {
                    throw new TradeException("no user " + userId);
                }
            }
            return null;
        }));
    }

    @Override
    public AccountDataBean register(String userId, String password, String fullName, String address, String email,
                                    String creditCard, BigDecimal openBalance) throws RemoteException, TradeException {
        return timed("register", () -> {
            if (userId == null || userId.isBlank()) {
                throw new TradeException("a user id is required");
            }
            if (openBalance == null || openBalance.signum() < 0) {
                throw new TradeException("opening balance must be >= 0, was " + openBalance);
            }
            long accountId = keys.next("account");
            return tx(c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM accountprofile WHERE userID = ?")) {
                    ps.setString(1, userId);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            throw new TradeException("user " + userId + " already exists");
                        }
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO accountprofile (userID, passwd, fullName, address,"
                        + " email, creditCard) VALUES (?, ?, ?, ?, ?, ?)")) {
                    ps.setString(1, userId);
                    ps.setString(2, password);
                    ps.setString(3, fullName);
                    ps.setString(4, address);
                    ps.setString(5, email);
                    ps.setString(6, creditCard);
                    ps.executeUpdate();
                }
                BigDecimal open = openBalance.setScale(2, RoundingMode.HALF_EVEN);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO account (accountID, creationDate, openBalance, balance,"
                        + " loginCount, logoutCount, lastLogin, profile_userID) VALUES (?, ?, ?, ?, 0, 0, ?, ?)")) {
                    Timestamp now = now();
                    ps.setLong(1, accountId);
                    ps.setTimestamp(2, now);
                    ps.setBigDecimal(3, open);
                    ps.setBigDecimal(4, open);
                    ps.setTimestamp(5, now);
                    ps.setString(6, userId);
                    ps.executeUpdate();
                }
                return account(c, userId);
            });
        });
    }

    // ------------------------------------------------------------------ benchmark operations

    @Override
    public long poison(long millis) {
        long start = nanoClock.getAsLong();
        long budget = TimeUnit.MILLISECONDS.toNanos(millis <= 0 ? DEFAULT_POISON_MILLIS : millis);
        long arrays = 0;
        while (nanoClock.getAsLong() - start < budget) {
            for (int i = 0; i < 64; i++) {
                byte[] b = new byte[POISON_ARRAY_BYTES];
                b[i] = (byte) arrays;
                poisonKeep[(int) (arrays & 15)] = b;
                arrays++;
            }
        }
        recorder.record("poison", nanoClock.getAsLong() - start, false);
        return arrays;
    }

    @Override
    public List<SecondSample> getTimeSeries(long sinceEpochSecond) {
        return recorder.since(sinceEpochSecond);
    }

    @Override
    public List<LatencySummary> getLatencySummary(boolean reset) {
        return recorder.summary(reset, wallMillis.getAsLong() / 1000);
    }

    @Override
    public AuditReport audit() throws RemoteException {
        long deadline = nanoClock.getAsLong() + TimeUnit.SECONDS.toNanos(30);
        while (pendingOrders.get() > 0 && nanoClock.getAsLong() < deadline) {
            try {
                Thread.sleep(20); // waiting for the order worker to settle queued orders before auditing
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        try {
            return ConsistencyAudit.run(dataSource);
        } catch (SQLException e) {
            throw new RemoteException("audit failed: " + e);
        }
    }

    // ------------------------------------------------------------------ plumbing

    /** One unit of work in a transaction. */
    @FunctionalInterface
    private interface SqlWork<T> {
        T run(Connection c) throws SQLException, TradeException;
    }

    /** One timed operation. */
    @FunctionalInterface
    private interface Op<T> {
        T run() throws SQLException, TradeException;
    }

    private <T> T timed(String operation, Op<T> op) throws RemoteException, TradeException {
        long start = nanoClock.getAsLong();
        boolean failed = true;
        try {
            T result = op.run();
            failed = false;
            return result;
        } catch (SQLException e) {
            // No cause: driver exceptions need not be serializable over IIOP.
            throw new RemoteException(operation + " failed in the database: " + e.getMessage());
        } finally {
            recorder.record(operation, nanoClock.getAsLong() - start, failed);
        }
    }

    private <T> T tx(SqlWork<T> work) throws SQLException, TradeException {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(false);
                try {
                    T result = work.run(c);
                    c.commit();
                    return result;
                } catch (SQLException | TradeException | RuntimeException e) {
                    c.rollback();
                    throw e;
                }
            } catch (SQLException e) {
                if (attempt >= ATTEMPTS || !isTransient(e)) {
                    throw e;
                }
            }
        }
    }

    /** Serialization failures, deadlocks (SQLSTATE class 40) and H2's lock timeout (HYT00). */
    private static boolean isTransient(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("40") || state.equals("HYT00"));
    }

    private Timestamp now() {
        return new Timestamp(wallMillis.getAsLong());
    }

    private static void requirePositive(double quantity) throws TradeException {
        if (!(quantity > 0) || Double.isInfinite(quantity)) {
            throw new TradeException("quantity must be > 0, was " + quantity);
        }
    }

    private static boolean isOpen(OrderDataBean order) {
        return "open".equals(order.getOrderStatus()) || "processing".equals(order.getOrderStatus());
    }

    private static long accountId(Connection c, String userId) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("SELECT accountID FROM account WHERE profile_userID = ?")) {
            ps.setString(1, userId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new TradeException("no user " + userId);
                }
                return rs.getLong(1);
            }
        }
    }

    private static long lockAccount(Connection c, String userId) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("SELECT accountID FROM account WHERE profile_userID = ? FOR UPDATE")) {
            ps.setString(1, userId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new TradeException("no user " + userId);
                }
                return rs.getLong(1);
            }
        }
    }

    private static void lockAccountById(Connection c, long accountId) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("SELECT accountID FROM account WHERE accountID = ? FOR UPDATE")) {
            ps.setLong(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new TradeException("no account " + accountId);
                }
            }
        }
    }

    private static void addToBalance(Connection c, long accountId, BigDecimal delta) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE accountID = ?")) {
            ps.setBigDecimal(1, delta);
            ps.setLong(2, accountId);
            ps.executeUpdate();
        }
    }

    private static AccountDataBean account(Connection c, String userId) throws SQLException, TradeException {
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

    private static AccountProfileDataBean profile(Connection c, String userId) throws SQLException, TradeException {
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

    private static void insertOrder(Connection c, long orderId, String type, String status, Timestamp now, double quantity,
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

    private static void setStatus(Connection c, long orderId, String status, Timestamp now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET orderStatus = ?, completionDate = ? WHERE orderID = ?")) {
            ps.setString(1, status);
            ps.setTimestamp(2, now);
            ps.setLong(3, orderId);
            ps.executeUpdate();
        }
    }

    private static OrderDataBean order(Connection c, long orderId) throws SQLException, TradeException {
        return orderQuery(c, "SELECT * FROM orders WHERE orderID = ?", orderId);
    }

    private static OrderDataBean lockOrder(Connection c, long orderId) throws SQLException, TradeException {
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

    private static List<OrderDataBean> orders(Connection c, long accountId, String status) throws SQLException {
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

    private static HoldingDataBean lockHolding(Connection c, long holdingId) throws SQLException, TradeException {
        HoldingDataBean h = findHolding(c, holdingId, true);
        if (h == null) {
            throw new TradeException("no holding " + holdingId + " (already sold?)");
        }
        return h;
    }

    private static HoldingDataBean findHolding(Connection c, long holdingId, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM holding WHERE holdingID = ?" + (lock ? " FOR UPDATE" : ""))) {
            ps.setLong(1, holdingId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? holding(rs) : null;
            }
        }
    }

    private static HoldingDataBean holding(ResultSet rs) throws SQLException {
        return new HoldingDataBean(rs.getLong("holdingID"), rs.getLong("account_accountID"), rs.getString("quote_symbol"),
                rs.getDouble("quantity"), rs.getBigDecimal("purchasePrice"), millis(rs.getTimestamp("purchaseDate")));
    }

    private static QuoteDataBean quote(Connection c, String symbol) throws SQLException, TradeException {
        QuoteDataBean q = findQuote(c, symbol, false);
        if (q == null) {
            throw new TradeException("no quote " + symbol);
        }
        return q;
    }

    private static QuoteDataBean lockQuote(Connection c, String symbol) throws SQLException, TradeException {
        QuoteDataBean q = findQuote(c, symbol, true);
        if (q == null) {
            throw new TradeException("no quote " + symbol);
        }
        return q;
    }

    private static QuoteDataBean findQuote(Connection c, String symbol, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM quote WHERE symbol = ?" + (lock ? " FOR UPDATE" : ""))) {
            ps.setString(1, symbol);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? quote(rs) : null;
            }
        }
    }

    private static void updateQuote(Connection c, String symbol, BigDecimal newPrice, double shares) throws SQLException {
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

    private static List<QuoteDataBean> quotes(Connection c, String sql, int limit) throws SQLException {
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

    /** The market summary and when it was computed. */
    private record CachedSummary(MarketSummaryDataBean summary, long computedNanos) {
    }
}
