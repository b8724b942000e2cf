package org.irmi.bench.daytrader.internal;

import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.irmi.bench.daytrader.AuditReport;
import org.irmi.bench.daytrader.HoldingDataBean;
import org.irmi.bench.daytrader.LatencySummary;
import org.irmi.bench.daytrader.TimeSeriesCsv;
import org.irmi.bench.daytrader.TradeException;
import org.irmi.bench.daytrader.TradeServices;

/**
 * The operator's pages (Bearer token; {@link WebTier} checks it): {@code scenario} runs one action
 * of the standard mix as a user of a shuffled deck (signing one in first when the request has no
 * session), {@code poison} calls the backend's poison operation (at most {@link #MAX_POISON_MILLIS}
 * ms), {@code audit} checks the database's consistency, and the read-outs {@code timeseries.csv} and
 * {@code summary} of the web tier or the backend.
 *
 * <p>THREAD-SAFE: the deck and the count of registered users are atomic.
 */
final class OperatorPages {
    /** The longest {@code poison} call. */
    static final long MAX_POISON_MILLIS = 60_000;

    private final TradeServices trade;
    private final UserPages pages;
    private final TimeSeriesRecorder recorder;
    private final LongSupplier nanoClock;
    private final ScenarioMix mix;
    private final int quotes;
    private final List<String> userDeck;
    private final AtomicInteger deckIndex = new AtomicInteger();
    private final AtomicLong registered = new AtomicLong();
    private final String registerPrefix;

    /**
     * @param users  the populated users ({@code uid:0} ...), whom the scenario signs in, in a shuffled order
     * @param quotes the populated quotes ({@code s:0} ...), which the scenario looks up and buys
     */
    OperatorPages(TradeServices trade, UserPages pages, TimeSeriesRecorder recorder, LongSupplier nanoClock,
                  ScenarioMix mix, int users, int quotes) {
        this.trade = trade;
        this.pages = pages;
        this.recorder = recorder;
        this.nanoClock = nanoClock;
        this.mix = mix;
        this.quotes = quotes;
        List<String> deck = new ArrayList<>(users);
        for (int i = 0; i < users; i++) {
            deck.add("uid:" + i);
        }
        Collections.shuffle(deck);
        this.userDeck = List.copyOf(deck);
        this.registerPrefix = "ru:" + Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36) + ":";
    }

    WebReply scenario(WebExchange ex) throws RemoteException {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (ex.user() == null) {
            String user = userDeck.get(Math.floorMod(deckIndex.getAndIncrement(), userDeck.size()));
            return signInAs(ex, user);
        }
        return switch (mix.pick(r.nextInt(mix.total()))) {
            case HOME -> pages.home(ex, null);
            case QUOTE -> {
                StringBuilder symbols = new StringBuilder();
                int n = 1 + r.nextInt(10);
                for (int i = 0; i < n; i++) {
                    symbols.append(i == 0 ? "" : ",").append("s:").append(r.nextInt(quotes));
                }
                yield pages.quote(ex, symbols.toString());
            }
            case LOGIN -> signInAs(ex, ex.user());
            case LOGOUT -> pages.logout(ex);
            case REGISTER -> {
                Map<String, String> f = new HashMap<>();
                String uid = registerPrefix + registered.incrementAndGet();
                f.put("uid", uid);
                f.put("passwd", "xxx");
                f.put("fullname", "Rnd " + uid);
                f.put("address", r.nextInt(1000) + " Oak St.");
                f.put("email", uid.replace(':', '.') + "@daytrader.example");
                f.put("creditcard", "1234-5678-" + (1000 + r.nextInt(9000)));
                f.put("money", Integer.toString(1_000_000));
                yield pages.register(ex, f::get);
            }
            case ACCOUNT -> pages.account(ex, null);
            case PORTFOLIO -> pages.portfolio(ex, null);
            case BUY -> scenarioBuy(ex, r);
            case SELL -> {
                try {
                    List<HoldingDataBean> holdings = trade.getHoldings(ex.user());
                    if (holdings.isEmpty()) {
                        yield scenarioBuy(ex, r); // a sell with an empty portfolio becomes a buy
                    }
                    yield pages.sell(ex, Long.toString(holdings.get(r.nextInt(holdings.size())).getHoldingId()));
                } catch (TradeException e) {
                    yield UserPages.business(ex, "Sell", e);
                }
            }
            case UPDATE -> {
                Map<String, String> f = new HashMap<>();
                f.put("fullname", "User " + r.nextInt(1_000_000));
                f.put("address", r.nextInt(1000) + " Market St.");
                yield pages.update(ex, f::get);
            }
        };
    }

    /** The scenario's sign-in of a user of the deck (the operator's page; the populated users' password is xxx). */
    private WebReply signInAs(WebExchange ex, String user) throws RemoteException {
        try {
            trade.login(user, "xxx");
            ex.signIn(user, null);
            return pages.home(ex, "Welcome, " + user + ".");
        } catch (TradeException e) {
            return pages.loginPage(ex, "Login failed: " + e.getMessage());
        }
    }

    private WebReply scenarioBuy(WebExchange ex, ThreadLocalRandom r) throws RemoteException {
        return pages.buy(ex, "s:" + r.nextInt(quotes), Integer.toString(1 + r.nextInt(100)));
    }

    WebReply poison(String millis) throws RemoteException {
        long ms;
        try {
            ms = millis == null ? 0 : Long.parseLong(millis.trim());
        } catch (NumberFormatException e) {
            return WebReply.error(400, "millis must be a whole number, was '" + millis + "'");
        }
        if (ms < 0 || ms > MAX_POISON_MILLIS) {
            return WebReply.error(400, "millis must be 0 (the default, 4 s) to " + MAX_POISON_MILLIS + ", was " + ms);
        }
        long t0 = nanoClock.getAsLong();
        long arrays = trade.poison(ms);
        return WebReply.text(String.format("poison: allocated %,d arrays of 10 KB in %.2f s%n", arrays,
                (nanoClock.getAsLong() - t0) / 1e9));
    }

    WebReply timeSeries(String tier, String since) throws RemoteException {
        long s;
        try {
            s = since == null ? 0 : Long.parseLong(since.trim());
        } catch (NumberFormatException e) {
            return WebReply.error(400, "since must be an epoch second, was '" + since + "'");
        }
        return new WebReply(200, "text/csv; charset=utf-8",
                TimeSeriesCsv.format("backend".equals(tier) ? trade.getTimeSeries(s) : recorder.since(s)));
    }

    WebReply summary(String tier, boolean reset) throws RemoteException {
        List<LatencySummary> list = "backend".equals(tier) ? trade.getLatencySummary(reset)
                : recorder.summary(reset, System.currentTimeMillis() / 1000);
        StringBuilder sb = new StringBuilder();
        for (LatencySummary l : list) {
            sb.append(l).append('\n');
        }
        return WebReply.text(sb.toString());
    }

    WebReply audit() throws RemoteException {
        AuditReport r = trade.audit();
        // key=value lines (java.util.Properties), read back by DayTraderDeployment.audit()
        StringBuilder sb = new StringBuilder("# ").append(r).append('\n');
        sb.append("consistent=").append(r.isConsistent()).append('\n').append("accounts=").append(r.getAccounts()).append('\n')
                .append("orders=").append(r.getOrders()).append('\n').append("holdings=").append(r.getHoldings()).append('\n')
                .append("badBalances=").append(r.getBadBalances()).append('\n').append("badHoldings=").append(r.getBadHoldings())
                .append('\n').append("stuckOrders=").append(r.getStuckOrders()).append('\n').append("duplicateIds=")
                .append(r.getDuplicateIds()).append('\n');
        for (int i = 0; i < r.getExamples().size(); i++) {
            sb.append("example.").append(i).append('=').append(r.getExamples().get(i).replace('\n', ' ')).append('\n');
        }
        return new WebReply(r.isConsistent() ? 200 : 500, WebReply.TEXT, sb.toString());
    }
}
