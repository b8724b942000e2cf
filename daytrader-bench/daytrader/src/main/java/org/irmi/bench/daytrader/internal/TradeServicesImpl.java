package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.rmi.RemoteException;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
 * This class times each operation and answers it from the desk that does it: {@link OrderDesk}
 * (trades and orders), {@link AccountDesk} (accounts) and {@link QuoteDesk} (quotes, holdings, the
 * market summary); the benchmark's own operations (poison, time series, audit) are here.
 *
 * <p>Atomicity: a buy or sell changes the balance, the holding, the order and the quote in one
 * transaction. Rows are locked in one global order (order, holding, account, quote) so concurrent
 * trades cannot deadlock each other; a transaction the database still aborts (serialization failure,
 * deadlock, lock timeout) is retried up to {@value TradeTransactions#ATTEMPTS} times
 * ({@link TradeTransactions}). Ids come from the {@link KeyGenerator}, taken before the transaction
 * opens.
 *
 * <p>Every operation records its execution time and outcome in the {@link TimeSeriesRecorder}
 * under its method name. THREAD-SAFE: called by the ORB's dispatch threads.
 */
public final class TradeServicesImpl implements TradeServices {
    static final long DEFAULT_POISON_MILLIS = 4_000;
    static final int POISON_ARRAY_BYTES = 10 * 1024;

    private final DataSource dataSource;
    private final TimeSeriesRecorder recorder;
    private final LongSupplier nanoClock;
    private final LongSupplier wallMillis;
    private final Executor orderWorker;
    private final OrderDesk orders;
    private final AccountDesk accounts;
    private final QuoteDesk quotes;
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
        KeyGenerator keys = new KeyGenerator(dataSource, KeyGenerator.DEFAULT_BLOCK_SIZE);
        TradeTransactions tx = new TradeTransactions(dataSource);
        this.recorder = recorder;
        this.nanoClock = nanoClock;
        this.wallMillis = wallMillis;
        this.orderWorker = orderWorker;
        this.orders = new OrderDesk(tx, keys, wallMillis, orderWorker);
        this.accounts = new AccountDesk(tx, keys, wallMillis);
        this.quotes = new QuoteDesk(tx, nanoClock, wallMillis);
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
        return orders.pendingOrders();
    }

    // ------------------------------------------------------------------ trades

    @Override
    public OrderDataBean buy(String userId, String symbol, double quantity, int mode) throws RemoteException, TradeException {
        return timed("buy", () -> orders.buy(userId, symbol, quantity, mode));
    }

    @Override
    public OrderDataBean sell(String userId, long holdingId, int mode) throws RemoteException, TradeException {
        return timed("sell", () -> orders.sell(userId, holdingId, mode));
    }

    @Override
    public void queueOrder(long orderId, boolean twoPhase) throws RemoteException, TradeException {
        timed("queueOrder", () -> {
            orders.queueOrder(orderId, twoPhase);
            return null;
        });
    }

    @Override
    public OrderDataBean completeOrder(long orderId, boolean twoPhase) throws RemoteException, TradeException {
        return timed("completeOrder", () -> orders.complete(orderId));
    }

    @Override
    public void cancelOrder(long orderId, boolean twoPhase) throws RemoteException, TradeException {
        timed("cancelOrder", () -> {
            orders.cancelOrder(orderId);
            return null;
        });
    }

    @Override
    public void orderCompleted(String userId, long orderId) throws RemoteException, TradeException {
        timed("orderCompleted", () -> {
            orders.orderCompleted(userId, orderId);
            return null;
        });
    }

    // ------------------------------------------------------------------ orders, holdings, quotes

    @Override
    public List<OrderDataBean> getOrders(String userId) throws RemoteException, TradeException {
        return timed("getOrders", () -> orders.ordersOf(userId));
    }

    @Override
    public List<OrderDataBean> getClosedOrders(String userId) throws RemoteException, TradeException {
        return timed("getClosedOrders", () -> orders.closedOrders(userId));
    }

    @Override
    public QuoteDataBean createQuote(String symbol, String companyName, BigDecimal price) throws RemoteException, TradeException {
        return timed("createQuote", () -> quotes.createQuote(symbol, companyName, price));
    }

    @Override
    public QuoteDataBean getQuote(String symbol) throws RemoteException, TradeException {
        return timed("getQuote", () -> quotes.quoteOf(symbol));
    }

    @Override
    public List<QuoteDataBean> getAllQuotes() throws RemoteException {
        try {
            return timed("getAllQuotes", quotes::allQuotes);
        } catch (TradeException e) {
            throw new RemoteException("getAllQuotes: " + e.getMessage());
        }
    }

    @Override
    public QuoteDataBean updateQuotePriceVolume(String symbol, BigDecimal newPrice, double sharesTraded)
            throws RemoteException, TradeException {
        return timed("updateQuotePriceVolume", () -> quotes.updateQuotePriceVolume(symbol, newPrice, sharesTraded));
    }

    @Override
    public List<HoldingDataBean> getHoldings(String userId) throws RemoteException, TradeException {
        return timed("getHoldings", () -> quotes.holdingsOf(userId));
    }

    @Override
    public HoldingDataBean getHolding(long holdingId) throws RemoteException, TradeException {
        return timed("getHolding", () -> quotes.holdingOf(holdingId));
    }

    @Override
    public MarketSummaryDataBean getMarketSummary() throws RemoteException {
        try {
            return timed("getMarketSummary", quotes::marketSummary);
        } catch (TradeException e) {
            throw new RemoteException("getMarketSummary: " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ accounts

    @Override
    public AccountDataBean getAccountData(String userId) throws RemoteException, TradeException {
        return timed("getAccountData", () -> accounts.accountData(userId));
    }

    @Override
    public AccountProfileDataBean getAccountProfileData(String userId) throws RemoteException, TradeException {
        return timed("getAccountProfileData", () -> accounts.profileData(userId));
    }

    @Override
    public AccountProfileDataBean updateAccountProfile(AccountProfileDataBean p) throws RemoteException, TradeException {
        return timed("updateAccountProfile", () -> accounts.updateProfile(p));
    }

    @Override
    public AccountDataBean login(String userId, String password) throws RemoteException, TradeException {
        return timed("login", () -> accounts.login(userId, password));
    }

    @Override
    public void logout(String userId) throws RemoteException, TradeException {
        timed("logout", () -> {
            accounts.logout(userId);
            return null;
        });
    }

    @Override
    public AccountDataBean register(String userId, String password, String fullName, String address, String email,
                                    String creditCard, BigDecimal openBalance) throws RemoteException, TradeException {
        return timed("register", () -> accounts.register(userId, password, fullName, address, email, creditCard,
                openBalance));
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
        while (orders.pendingOrders() > 0 && nanoClock.getAsLong() < deadline) {
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
}
