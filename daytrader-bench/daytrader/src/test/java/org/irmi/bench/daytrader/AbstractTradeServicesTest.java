package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.irmi.bench.daytrader.internal.TimeSeriesRecorder;
import org.irmi.bench.daytrader.internal.TradeDatabase;
import org.irmi.bench.daytrader.internal.TradeMath;
import org.irmi.bench.daytrader.internal.TradeServicesImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every {@link TradeServices} operation against a real database, in-process (the RMI-IIOP path is
 * covered by {@link DayTraderEndToEndTest}). Subclasses name the database; each test gets a fresh
 * small population (50 users, 30 quotes), a manual clock and an order worker driven by hand.
 */
abstract class AbstractTradeServicesTest {
    static final int USERS = 50;
    static final int QUOTES = 30;

    HikariDataSource pool;
    TradeServicesImpl trade;
    TimeSeriesRecorder recorder;
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final ArrayDeque<Runnable> queued = new ArrayDeque<>();

    /** The JDBC URL of the database under test. */
    abstract String jdbcUrl();

    /** The schema the tables go in (null for the default). */
    abstract String schema();

    @BeforeEach
    void populate() throws Exception {
        pool = TradeDatabase.pool(jdbcUrl(), schema(), 4);
        TradeDatabase.createAndPopulate(pool, USERS, QUOTES, 7);
        recorder = new TimeSeriesRecorder(60);
        trade = new TradeServicesImpl(pool, recorder, nanos::get, () -> 1_700_000_000_000L + nanos.get() / 1_000_000,
                queued::add);
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    private void runQueuedOrders() {
        while (!queued.isEmpty()) {
            queued.poll().run();
        }
    }

    private long firstHolding(String user) throws Exception {
        List<HoldingDataBean> holdings = trade.getHoldings(user);
        if (holdings.isEmpty()) {
            return trade.buy(user, "s:1", 10, TradeServices.SYNCH).getHoldingId();
        }
        return holdings.get(0).getHoldingId();
    }

    @Test
    void shouldPopulateUsersQuotesAndAConsistentDatabase() throws Exception {
        assertThat(trade.getAllQuotes()).hasSize(QUOTES);
        assertThat(trade.getAccountData("uid:0").getOpenBalance()).isEqualByComparingTo("1000000");
        assertThat(trade.getAccountData("uid:" + (USERS - 1)).getOpenBalance())
                .isBetween(new BigDecimal("200000"), new BigDecimal("299999"));
        AuditReport report = trade.audit();
        assertThat(report.getAccounts()).isEqualTo(USERS);
        assertThat(report.isConsistent()).as(report.toString()).isTrue();
    }

    @Test
    void shouldLoginAndCountItWhenPasswordMatches() throws Exception {
        AccountDataBean a = trade.login("uid:3", "xxx");
        assertThat(a.getLoginCount()).isEqualTo(1);
        assertThat(trade.login("uid:3", "xxx").getLoginCount()).isEqualTo(2);
    }

    @Test
    void shouldRefuseLoginWhenPasswordIsWrong() {
        assertThatThrownBy(() -> trade.login("uid:3", "nope")).isInstanceOf(TradeException.class).hasMessageContaining("password");
    }

    @Test
    void shouldRefuseLoginWhenUserIsUnknown() {
        assertThatThrownBy(() -> trade.login("nobody", "xxx")).isInstanceOf(TradeException.class).hasMessageContaining("nobody");
    }

    @Test
    void shouldCountLogout() throws Exception {
        trade.logout("uid:4");
        assertThat(trade.getAccountData("uid:4").getLogoutCount()).isEqualTo(1);
    }

    @Test
    void shouldRegisterAUserWhoCanLogIn() throws Exception {
        AccountDataBean a = trade.register("new:1", "pw", "New One", "1 Road", "n@x", "1234", new BigDecimal("5000"));
        assertThat(a.getBalance()).isEqualByComparingTo("5000");
        assertThat(trade.login("new:1", "pw").getUserId()).isEqualTo("new:1");
        assertThat(trade.getAccountProfileData("new:1").getFullName()).isEqualTo("New One");
    }

    @Test
    void shouldRefuseRegisteringAnExistingUser() {
        assertThatThrownBy(() -> trade.register("uid:1", "pw", "x", "x", "x", "x", BigDecimal.TEN))
                .isInstanceOf(TradeException.class).hasMessageContaining("already exists");
    }

    @Test
    void shouldUpdateProfile() throws Exception {
        AccountProfileDataBean old = trade.getAccountProfileData("uid:5");
        trade.updateAccountProfile(new AccountProfileDataBean("uid:5", "yyy", "Renamed", old.getAddress(), "r@x", old.getCreditCard()));
        AccountProfileDataBean now = trade.getAccountProfileData("uid:5");
        assertThat(now.getFullName()).isEqualTo("Renamed");
        assertThat(now.getPassword()).isEqualTo("yyy");
    }

    @Test
    void shouldDebitBalanceCreateHoldingAndAddVolumeWhenBuyingSynchronously() throws Exception {
        BigDecimal before = trade.getAccountData("uid:6").getBalance();
        QuoteDataBean quote = trade.getQuote("s:2");
        OrderDataBean order = trade.buy("uid:6", "s:2", 10, TradeServices.SYNCH);
        assertThat(order.getOrderStatus()).isEqualTo("closed");
        assertThat(trade.getAccountData("uid:6").getBalance())
                .isEqualByComparingTo(before.subtract(TradeMath.value(quote.getPrice(), 10)).subtract(TradeMath.ORDER_FEE));
        HoldingDataBean holding = trade.getHolding(order.getHoldingId());
        assertThat(holding.getQuantity()).isEqualTo(10.0);
        assertThat(trade.getQuote("s:2").getVolume()).isEqualTo(quote.getVolume() + 10);
    }

    @Test
    void shouldCreditBalanceAndRemoveHoldingWhenSellingSynchronously() throws Exception {
        long holdingId = firstHolding("uid:7");
        HoldingDataBean holding = trade.getHolding(holdingId);
        BigDecimal before = trade.getAccountData("uid:7").getBalance();
        BigDecimal price = trade.getQuote(holding.getSymbol()).getPrice();
        OrderDataBean order = trade.sell("uid:7", holdingId, TradeServices.SYNCH);
        assertThat(order.getOrderType()).isEqualTo("sell");
        assertThat(trade.getAccountData("uid:7").getBalance())
                .isEqualByComparingTo(before.add(TradeMath.value(price, holding.getQuantity())).subtract(TradeMath.ORDER_FEE));
        assertThatThrownBy(() -> trade.getHolding(holdingId)).isInstanceOf(TradeException.class);
    }

    @Test
    void shouldRefuseSellingAnotherUsersHolding() throws Exception {
        long holdingId = firstHolding("uid:8");
        assertThatThrownBy(() -> trade.sell("uid:9", holdingId, TradeServices.SYNCH))
                .isInstanceOf(TradeException.class).hasMessageContaining("does not belong");
        assertThat(trade.getHolding(holdingId).getAccountId()).isEqualTo(trade.getAccountData("uid:8").getAccountId());
    }

    @Test
    void shouldRefuseSellingTheSameHoldingTwice() throws Exception {
        long holdingId = firstHolding("uid:10");
        trade.sell("uid:10", holdingId, TradeServices.SYNCH);
        assertThatThrownBy(() -> trade.sell("uid:10", holdingId, TradeServices.SYNCH)).isInstanceOf(TradeException.class);
        assertThat(trade.audit().isConsistent()).isTrue();
    }

    @Test
    void shouldLeaveAnAsynchronousBuyOpenUntilTheWorkerCompletesIt() throws Exception {
        BigDecimal before = trade.getAccountData("uid:11").getBalance();
        OrderDataBean order = trade.buy("uid:11", "s:3", 5, TradeServices.ASYNCH);
        assertThat(order.getOrderStatus()).isEqualTo("open");
        assertThat(trade.getAccountData("uid:11").getBalance()).isEqualByComparingTo(before);
        runQueuedOrders();
        OrderDataBean done = trade.getOrders("uid:11").get(0);
        assertThat(done.getOrderStatus()).isEqualTo("closed");
        assertThat(trade.getAccountData("uid:11").getBalance()).isLessThan(before);
    }

    @Test
    void shouldCompleteAnOpenOrderWhenAskedDirectly() throws Exception {
        OrderDataBean order = trade.buy("uid:12", "s:4", 5, TradeServices.ASYNCH);
        OrderDataBean done = trade.completeOrder(order.getOrderId(), false);
        assertThat(done.getOrderStatus()).isEqualTo("closed");
        runQueuedOrders(); // the worker finds it settled and leaves it alone
        assertThat(trade.audit().isConsistent()).isTrue();
    }

    @Test
    void shouldCancelAnOpenOrderAndRefuseToCompleteIt() throws Exception {
        OrderDataBean order = trade.buy("uid:13", "s:4", 5, TradeServices.ASYNCH_2PHASE);
        trade.cancelOrder(order.getOrderId(), true);
        assertThatThrownBy(() -> trade.completeOrder(order.getOrderId(), true)).isInstanceOf(TradeException.class)
                .hasMessageContaining("cancelled");
        runQueuedOrders();
        assertThat(trade.getOrders("uid:13").get(0).getOrderStatus()).isEqualTo("cancelled");
    }

    @Test
    void shouldQueueAnOpenOrderForTheWorker() throws Exception {
        OrderDataBean order = trade.buy("uid:14", "s:5", 5, TradeServices.ASYNCH);
        trade.queueOrder(order.getOrderId(), false);
        assertThat(queued).hasSize(2);
        runQueuedOrders();
        assertThat(trade.getOrders("uid:14").get(0).getOrderStatus()).isEqualTo("closed");
        assertThat(trade.audit().isConsistent()).isTrue();
    }

    @Test
    void shouldReturnClosedOrdersOnceAndMarkThemCompleted() throws Exception {
        trade.buy("uid:15", "s:5", 1, TradeServices.SYNCH);
        List<OrderDataBean> closed = trade.getClosedOrders("uid:15");
        assertThat(closed).extracting(OrderDataBean::getOrderStatus).containsOnly("closed").isNotEmpty();
        assertThat(trade.getClosedOrders("uid:15")).isEmpty();
        assertThat(trade.getOrders("uid:15").get(0).getOrderStatus()).isEqualTo("completed");
    }

    @Test
    void shouldMarkAClosedOrderCompletedWhenAcknowledged() throws Exception {
        OrderDataBean order = trade.buy("uid:16", "s:6", 1, TradeServices.SYNCH);
        trade.orderCompleted("uid:16", order.getOrderId());
        assertThat(trade.getOrders("uid:16").get(0).getOrderStatus()).isEqualTo("completed");
        assertThatThrownBy(() -> trade.orderCompleted("uid:17", order.getOrderId())).isInstanceOf(TradeException.class);
    }

    @Test
    void shouldCreateReadAndUpdateAQuote() throws Exception {
        trade.createQuote("NEW", "New Corp", new BigDecimal("12.5"));
        assertThat(trade.getQuote("NEW").getPrice()).isEqualByComparingTo("12.50");
        QuoteDataBean updated = trade.updateQuotePriceVolume("NEW", new BigDecimal("15"), 100);
        assertThat(updated.getPrice()).isEqualByComparingTo("15");
        assertThat(updated.getHigh()).isEqualByComparingTo("15");
        assertThat(updated.getChange()).isEqualTo(2.5);
        assertThat(updated.getVolume()).isEqualTo(100.0);
        assertThat(trade.getAllQuotes()).hasSize(QUOTES + 1);
        assertThatThrownBy(() -> trade.createQuote("NEW", "again", BigDecimal.ONE)).isInstanceOf(TradeException.class);
    }

    @Test
    void shouldRefuseAnUnknownSymbol() {
        assertThatThrownBy(() -> trade.getQuote("zzz")).isInstanceOf(TradeException.class).hasMessageContaining("zzz");
        assertThatThrownBy(() -> trade.buy("uid:1", "zzz", 1, TradeServices.SYNCH)).isInstanceOf(TradeException.class);
    }

    @Test
    void shouldRefuseANonPositiveQuantity() {
        assertThatThrownBy(() -> trade.buy("uid:1", "s:1", 0, TradeServices.SYNCH)).isInstanceOf(TradeException.class)
                .hasMessageContaining("quantity");
    }

    @Test
    void shouldKeepTheMarketSummaryFor20SecondsThenRecompute() throws Exception {
        MarketSummaryDataBean first = trade.getMarketSummary();
        trade.updateQuotePriceVolume("s:0", new BigDecimal("999"), 1000);
        assertThat(trade.getMarketSummary()).isSameAs(first);
        nanos.addAndGet(20_000_000_000L);
        MarketSummaryDataBean second = trade.getMarketSummary();
        assertThat(second.getVolume()).isEqualTo(first.getVolume() + 1000);
        assertThat(second.getTopGainers().get(0).getSymbol()).isEqualTo("s:0");
        assertThat(second.getTsia()).isGreaterThan(first.getTsia());
    }

    @Test
    void shouldListOrdersAndHoldingsOfAUser() throws Exception {
        int holdingsBefore = trade.getHoldings("uid:18").size();
        trade.buy("uid:18", "s:7", 3, TradeServices.SYNCH);
        assertThat(trade.getHoldings("uid:18")).hasSize(holdingsBefore + 1);
        assertThat(trade.getOrders("uid:18")).hasSize(holdingsBefore + 1);
    }

    @Test
    void shouldRecordEachOperationInTheTimeSeries() throws Exception {
        trade.getQuote("s:1");
        trade.getQuote("s:2");
        trade.login("uid:1", "xxx");
        recorder.roll(100, 0, 0, 0);
        List<SecondSample> series = trade.getTimeSeries(100);
        assertThat(series).hasSize(1);
        assertThat(series.get(0).getOperations()).extracting(OperationSecond::getOperation, OperationSecond::getCount)
                .contains(org.assertj.core.groups.Tuple.tuple("getQuote", 2L), org.assertj.core.groups.Tuple.tuple("login", 1L));
    }

    @Test
    void shouldAllocateForTheGivenTimeWhenPoisoned() throws Exception {
        TradeServicesImpl realClock = new TradeServicesImpl(pool, recorder, System::nanoTime, System::currentTimeMillis, queued::add);
        long t0 = System.nanoTime();
        long arrays = realClock.poison(100);
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(100_000_000L);
        assertThat(arrays).isGreaterThan(64);
    }

    @Test
    void shouldFindABalanceChangedBehindTheServicesBack() throws Exception {
        sql("UPDATE account SET balance = balance + 1 WHERE accountID = 3");
        AuditReport r = trade.audit();
        assertThat(r.getBadBalances()).isEqualTo(1);
        assertThat(r.isConsistent()).isFalse();
    }

    @Test
    void shouldFindALostHolding() throws Exception {
        long holdingId = firstHolding("uid:20");
        sql("DELETE FROM holding WHERE holdingID = " + holdingId);
        assertThat(trade.audit().getBadHoldings()).isEqualTo(1);
    }

    @Test
    void shouldFindAnOrderStuckOpen() throws Exception {
        trade.buy("uid:21", "s:1", 1, TradeServices.ASYNCH);
        assertThat(ConsistencyAudit.run(pool).getStuckOrders()).isEqualTo(1);
        runQueuedOrders();
        assertThat(ConsistencyAudit.run(pool).getStuckOrders()).isZero();
    }

    @Test
    void shouldFindAKeyGeneratorThatWouldReuseIds() throws Exception {
        sql("UPDATE keygen SET keyval = 0 WHERE keyname = 'order'");
        assertThat(ConsistencyAudit.run(pool).getDuplicateIds()).isEqualTo(1);
    }

    @Test
    void shouldStayConsistentUnderConcurrentTrades() throws Exception {
        TradeServicesImpl concurrent = new TradeServicesImpl(pool, recorder, System::nanoTime, System::currentTimeMillis);
        List<Thread> threads = new java.util.ArrayList<>();
        java.util.concurrent.ConcurrentLinkedQueue<Throwable> unexpected = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int t = 0; t < 4; t++) {
            int seed = t;
            threads.add(new Thread(() -> {
                java.util.Random r = new java.util.Random(seed);
                for (int i = 0; i < 40; i++) {
                    String user = "uid:" + r.nextInt(5); // few users: many collisions on the same rows
                    try {
                        if (r.nextBoolean()) {
                            concurrent.buy(user, "s:" + r.nextInt(3), 1 + r.nextInt(5), r.nextInt(3));
                        } else {
                            List<HoldingDataBean> h = concurrent.getHoldings(user);
                            if (!h.isEmpty()) {
                                concurrent.sell(user, h.get(r.nextInt(h.size())).getHoldingId(), r.nextInt(3));
                            }
                        }
                    } catch (TradeException expected) {
                        // a holding sold by another thread first
                    } catch (Throwable e) {
                        unexpected.add(e);
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(60_000);
        }
        AuditReport r = concurrent.audit();
        concurrent.shutdown();
        assertThat(unexpected).isEmpty();
        assertThat(r.isConsistent()).as(r.toString()).isTrue();
    }

    void sql(String statement) throws Exception {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }
}
