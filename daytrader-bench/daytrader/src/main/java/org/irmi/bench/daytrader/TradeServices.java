package org.irmi.bench.daytrader;

import java.math.BigDecimal;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.util.List;

/**
 * The DayTrader backend's operations, served over RMI-IIOP. The first block is the DayTrader
 * specification's {@code TradeServices}; the second holds the benchmark's own operations (the
 * paper's poison operation, the time series, the audit).
 *
 * <p>Order processing modes: {@link #SYNCH} completes a buy or sell in the same transaction;
 * {@link #ASYNCH} and {@link #ASYNCH_2PHASE} leave the order open and a backend worker completes it
 * shortly after (a later {@link #completeOrder} or {@link #cancelOrder} settles it first if called).
 *
 * <p>The IDL operation names are the Java method names (no overloads), so the poison operation
 * is {@code poison} on the wire.
 */
public interface TradeServices extends Remote {
    int SYNCH = 0;
    int ASYNCH = 1;
    int ASYNCH_2PHASE = 2;

    MarketSummaryDataBean getMarketSummary() throws RemoteException;

    OrderDataBean buy(String userId, String symbol, double quantity, int orderProcessingMode)
            throws RemoteException, TradeException;

    OrderDataBean sell(String userId, long holdingId, int orderProcessingMode) throws RemoteException, TradeException;

    /** Hands an open order to the backend's order worker, which completes it asynchronously. */
    void queueOrder(long orderId, boolean twoPhase) throws RemoteException, TradeException;

    /** Completes an open order: balance, holding, order and quote volume in one transaction. */
    OrderDataBean completeOrder(long orderId, boolean twoPhase) throws RemoteException, TradeException;

    void cancelOrder(long orderId, boolean twoPhase) throws RemoteException, TradeException;

    /** Acknowledges a completed order: marks it closed. */
    void orderCompleted(String userId, long orderId) throws RemoteException, TradeException;

    List<OrderDataBean> getOrders(String userId) throws RemoteException, TradeException;

    /** The user's completed orders not yet acknowledged; they are marked closed as a side effect. */
    List<OrderDataBean> getClosedOrders(String userId) throws RemoteException, TradeException;

    QuoteDataBean createQuote(String symbol, String companyName, BigDecimal price) throws RemoteException, TradeException;

    QuoteDataBean getQuote(String symbol) throws RemoteException, TradeException;

    List<QuoteDataBean> getAllQuotes() throws RemoteException;

    QuoteDataBean updateQuotePriceVolume(String symbol, BigDecimal newPrice, double sharesTraded)
            throws RemoteException, TradeException;

    List<HoldingDataBean> getHoldings(String userId) throws RemoteException, TradeException;

    HoldingDataBean getHolding(long holdingId) throws RemoteException, TradeException;

    AccountDataBean getAccountData(String userId) throws RemoteException, TradeException;

    AccountProfileDataBean getAccountProfileData(String userId) throws RemoteException, TradeException;

    AccountProfileDataBean updateAccountProfile(AccountProfileDataBean profile) throws RemoteException, TradeException;

    AccountDataBean login(String userId, String password) throws RemoteException, TradeException;

    void logout(String userId) throws RemoteException, TradeException;

    AccountDataBean register(String userId, String password, String fullName, String address, String email,
                             String creditCard, BigDecimal openBalance) throws RemoteException, TradeException;

    // ---- benchmark operations ----

    /**
     * The paper's poison operation: allocates 10 KB byte arrays in a tight loop for
     * {@code millis} milliseconds ({@code <= 0} means the default, 4,000) and returns how many it allocated.
     */
    long poison(long millis) throws RemoteException;

    /** Per-second samples of the backend with {@code epochSecond >= sinceEpochSecond}, oldest first. */
    List<SecondSample> getTimeSeries(long sinceEpochSecond) throws RemoteException;

    /** Latency summaries per operation plus {@code *} for all, since the last reset; optionally resets. */
    List<LatencySummary> getLatencySummary(boolean reset) throws RemoteException;

    /** Runs the {@link ConsistencyAudit} on the backend's database, after settling queued orders. */
    AuditReport audit() throws RemoteException;
}
