package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.rmi.RemoteException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.irmi.bench.daytrader.AccountDataBean;
import org.irmi.bench.daytrader.AccountProfileDataBean;
import org.irmi.bench.daytrader.AuditReport;
import org.irmi.bench.daytrader.HoldingDataBean;
import org.irmi.bench.daytrader.LatencySummary;
import org.irmi.bench.daytrader.OrderDataBean;
import org.irmi.bench.daytrader.QuoteDataBean;
import org.irmi.bench.daytrader.TimeSeriesCsv;
import org.irmi.bench.daytrader.TradeException;
import org.irmi.bench.daytrader.TradeServices;

/**
 * The web tier's pages, as one Jetty handler that calls the backend over RMI-IIOP. Sessions are a
 * {@code DTSESSION} cookie naming a server-side session that holds the signed-in user.
 *
 * <p>Pages (GET or POST): {@code home, login, logout, register, quote, portfolio, account, update,
 * buy, sell} under {@code /daytrader/} ({@code sell?holdingID=N}, or {@code sell?symbol=S} for the
 * oldest holding of S, which httperf's scripted sessions use: {@code SessionLog}); {@code /daytrader/scenario} runs one action of the standard
 * mix; {@code /daytrader/poison?millis=N} calls the backend's poison operation. Read-outs:
 * {@code timeseries.csv?tier=web|backend&since=S}, {@code summary?tier=web|backend&reset=true},
 * {@code audit}.
 *
 * <p>A {@link TradeException} is a business outcome and renders with status 200; a failed backend
 * call ({@link RemoteException} or a CORBA system exception) renders status 500. Each page's
 * execution time is recorded under its name. THREAD-SAFE.
 */
final class WebTier extends Handler.Abstract {
    static final String COOKIE = "DTSESSION";
    private static final int MAX_SESSIONS = 200_000;
    private static final int MAX_ORDERS_SHOWN = 50;

    private final TradeServices trade;
    private final TimeSeriesRecorder recorder;
    private final LongSupplier nanoClock;
    private final ScenarioMix mix;
    private final int quotes;
    private final List<String> userDeck;
    private final AtomicInteger deckIndex = new AtomicInteger();
    private final AtomicLong registered = new AtomicLong();
    private final ConcurrentHashMap<String, Session> sessions = new ConcurrentHashMap<>();
    private final SecureRandom sessionIds = new SecureRandom();
    private final String registerPrefix;

    WebTier(TradeServices trade, TimeSeriesRecorder recorder, LongSupplier nanoClock, ScenarioMix mix, int users, int quotes) {
        this.trade = trade;
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

    /** A browser's or httperf session's state. */
    private static final class Session {
        volatile String id;
        volatile String userId;
        volatile long lastSeenNanos;
    }

    /** A session unused this long is gone: its cookie no longer signs anyone in. */
    static final long SESSION_IDLE_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(30);
    /** The largest opening balance {@code register} takes, and the longest {@code poison} call. */
    static final BigDecimal MAX_OPENING_BALANCE = new BigDecimal("1000000000");
    static final long MAX_POISON_MILLIS = 60_000;

    /** A rendered reply. */
    private record Page(int status, String contentType, String body) {
        static Page html(String body) {
            return new Page(200, "text/html; charset=utf-8", body);
        }

        static Page text(String body) {
            return new Page(200, "text/plain; charset=utf-8", body);
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        String name = path.startsWith("/daytrader/") ? path.substring("/daytrader/".length()) : path.equals("/") ? "" : path;
        if (name.isEmpty() || name.equals("/daytrader")) {
            name = "home";
        }
        Session session = session(request, response);
        Fields params = Request.getParameters(request);
        long start = nanoClock.getAsLong();
        Page page;
        boolean failed = false;
        String signedInBefore = session.userId;
        try {
            page = route(name, params, session);
            if (signedInBefore == null && session.userId != null) {
                renewId(session, response); // a new id at login: an id known before it (fixation) signs nobody in
            }
        } catch (Exception e) { // RemoteException, CORBA system exceptions, and what a broken reply makes the stub throw
            failed = true;
            page = new Page(500, "text/html; charset=utf-8", new Html("Backend failure", session.userId)
                    .error(name + ": " + e).finish());
        }
        if (page == null) {
            page = new Page(404, "text/html; charset=utf-8", new Html("Not found", session.userId)
                    .error("no page " + path).finish());
        } else {
            recorder.record(name.endsWith(".csv") ? "timeseries" : name, nanoClock.getAsLong() - start, failed);
        }
        response.setStatus(page.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, page.contentType());
        response.write(true, ByteBuffer.wrap(page.body().getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

    private Session session(Request request, Response response) {
        long now = nanoClock.getAsLong();
        for (HttpCookie c : Request.getCookies(request)) {
            if (COOKIE.equals(c.getName())) {
                Session s = sessions.get(c.getValue());
                if (s != null && now - s.lastSeenNanos < SESSION_IDLE_NANOS) {
                    s.lastSeenNanos = now;
                    return s;
                }
                if (s != null) {
                    sessions.remove(c.getValue(), s); // expired
                }
            }
        }
        if (sessions.size() >= MAX_SESSIONS) {
            sessions.values().removeIf(x -> now - x.lastSeenNanos >= SESSION_IDLE_NANOS);
            if (sessions.size() >= MAX_SESSIONS) {
                sessions.clear(); // the bound holds even when every session is recent
            }
        }
        Session s = new Session();
        s.lastSeenNanos = now;
        s.id = newId();
        sessions.put(s.id, s);
        Response.addCookie(response, cookie(s.id));
        return s;
    }

    private void renewId(Session s, Response response) {
        String old = s.id;
        s.id = newId();
        sessions.put(s.id, s);
        sessions.remove(old, s);
        Response.addCookie(response, cookie(s.id));
    }

    private String newId() {
        byte[] raw = new byte[16];
        sessionIds.nextBytes(raw);
        return java.util.HexFormat.of().formatHex(raw);
    }

    private static HttpCookie cookie(String id) {
        return HttpCookie.build(COOKIE, id).path("/").httpOnly(true).sameSite(HttpCookie.SameSite.LAX).build();
    }

    private Page route(String name, Fields params, Session session) throws RemoteException {
        return switch (name) {
            case "home" -> home(session, null);
            case "login" -> login(session, params.getValue("uid"), params.getValue("passwd"));
            case "logout" -> logout(session);
            case "register" -> register(session, params);
            case "quote" -> quote(session, params.getValue("symbols"));
            case "portfolio" -> portfolio(session, null);
            case "account" -> account(session, null);
            case "update" -> update(session, params);
            case "buy" -> buy(session, params.getValue("symbol"), params.getValue("quantity"));
            case "sell" -> params.getValue("symbol") != null && params.getValue("holdingID") == null
                    ? sellSymbol(session, params.getValue("symbol")) : sell(session, params.getValue("holdingID"));
            case "scenario" -> scenario(session);
            case "poison" -> poison(params.getValue("millis"));
            case "timeseries.csv" -> timeSeries(params.getValue("tier"), params.getValue("since"));
            case "summary" -> summary(params.getValue("tier"), "true".equals(params.getValue("reset")));
            case "audit" -> audit();
            default -> null;
        };
    }

    // ------------------------------------------------------------------ pages

    private Page loginPage(String message) {
        Html h = new Html("Log in", null);
        if (message != null) {
            h.error(message);
        }
        return Page.html(h.loginForm().finish());
    }

    private Page home(Session s, String message) throws RemoteException {
        String user = s.userId;
        if (user == null) {
            return loginPage(message);
        }
        try {
            Html h = new Html("Home", user);
            if (message != null) {
                h.p(message);
            }
            AccountDataBean a = trade.getAccountData(user);
            List<HoldingDataBean> holdings = trade.getHoldings(user);
            h.account(a).p(holdings.size() + " holdings.");
            List<OrderDataBean> closed = trade.getClosedOrders(user);
            if (!closed.isEmpty()) {
                h.p("Completed since your last visit: " + closed.size() + " orders.");
            }
            return Page.html(h.marketSummary(trade.getMarketSummary()).finish());
        } catch (TradeException e) {
            return business("Home", user, e);
        }
    }

    private Page login(Session s, String uid, String passwd) throws RemoteException {
        if (uid == null) {
            return loginPage(null);
        }
        try {
            trade.login(uid, passwd == null ? "" : passwd);
            s.userId = uid;
            return home(s, "Welcome, " + uid + ".");
        } catch (TradeException e) {
            return loginPage("Login failed: " + e.getMessage());
        }
    }

    private Page logout(Session s) throws RemoteException {
        String user = s.userId;
        s.userId = null;
        if (user != null) {
            try {
                trade.logout(user);
            } catch (TradeException e) {
                return loginPage("Logout: " + e.getMessage());
            }
        }
        return loginPage("Logged off.");
    }

    private Page register(Session s, Fields p) throws RemoteException {
        String uid = p.getValue("uid");
        if (uid == null) {
            return Page.html(new Html("Register", s.userId).registerForm().finish());
        }
        try {
            BigDecimal money = new BigDecimal(p.getValue("money") == null ? "10000" : p.getValue("money").trim());
            if (money.signum() < 0 || money.compareTo(MAX_OPENING_BALANCE) > 0 || money.scale() > 2) {
                return Page.html(new Html("Register", s.userId).error("opening balance must be 0 to 1,000,000,000 with at most"
                        + " 2 decimals").registerForm().finish());
            }
            String passwd = p.getValue("passwd") == null ? "xxx" : p.getValue("passwd");
            trade.register(uid, passwd, p.getValue("fullname"), p.getValue("address"), p.getValue("email"),
                    p.getValue("creditcard"), money);
            return login(s, uid, passwd);
        } catch (NumberFormatException e) {
            return Page.html(new Html("Register", s.userId).error("opening balance must be a number").registerForm().finish());
        } catch (TradeException e) {
            return Page.html(new Html("Register", s.userId).error(e.getMessage()).registerForm().finish());
        }
    }

    private Page quote(Session s, String symbols) throws RemoteException {
        List<QuoteDataBean> found = new ArrayList<>();
        Html h = new Html("Quotes", s.userId);
        for (String symbol : (symbols == null || symbols.isBlank() ? "s:0,s:1,s:2,s:3,s:4" : symbols).split("[,\\s]+")) {
            if (symbol.isEmpty()) {
                continue;
            }
            try {
                found.add(trade.getQuote(symbol));
            } catch (TradeException e) {
                h.error(e.getMessage());
            }
        }
        return Page.html(h.quotes(found).finish());
    }

    private Page portfolio(Session s, String message) throws RemoteException {
        String user = s.userId;
        if (user == null) {
            return loginPage("Log in to see your portfolio.");
        }
        try {
            Html h = new Html("Portfolio", user);
            if (message != null) {
                h.raw(message);
            }
            List<HoldingDataBean> holdings = trade.getHoldings(user);
            Map<String, QuoteDataBean> quotesBySymbol = new HashMap<>();
            for (HoldingDataBean holding : holdings) {
                if (!quotesBySymbol.containsKey(holding.getSymbol())) {
                    quotesBySymbol.put(holding.getSymbol(), trade.getQuote(holding.getSymbol()));
                }
            }
            return Page.html(h.holdings(holdings, quotesBySymbol).finish());
        } catch (TradeException e) {
            return business("Portfolio", user, e);
        }
    }

    private Page account(Session s, String message) throws RemoteException {
        String user = s.userId;
        if (user == null) {
            return loginPage("Log in to see your account.");
        }
        try {
            Html h = new Html("Account", user);
            if (message != null) {
                h.p(message);
            }
            return Page.html(h.account(trade.getAccountData(user)).profileForm(trade.getAccountProfileData(user))
                    .orders(trade.getOrders(user), MAX_ORDERS_SHOWN).finish());
        } catch (TradeException e) {
            return business("Account", user, e);
        }
    }

    private Page update(Session s, Fields p) throws RemoteException {
        String user = s.userId;
        if (user == null) {
            return loginPage("Log in to update your profile.");
        }
        try {
            AccountProfileDataBean old = trade.getAccountProfileData(user);
            trade.updateAccountProfile(new AccountProfileDataBean(user, or(p.getValue("passwd"), old.getPassword()),
                    or(p.getValue("fullname"), old.getFullName()), or(p.getValue("address"), old.getAddress()),
                    or(p.getValue("email"), old.getEmail()), or(p.getValue("creditcard"), old.getCreditCard())));
            return account(s, "Profile updated.");
        } catch (TradeException e) {
            return business("Update profile", user, e);
        }
    }

    private Page buy(Session s, String symbol, String quantity) throws RemoteException {
        String user = s.userId;
        if (user == null) {
            return loginPage("Log in to buy.");
        }
        double q;
        try {
            q = Double.parseDouble(quantity == null ? "" : quantity.trim());
        } catch (NumberFormatException e) {
            return Page.html(new Html("Buy", user).error("quantity must be a number, was '" + quantity + "'").finish());
        }
        try {
            OrderDataBean order = trade.buy(user, symbol == null ? "" : symbol, q, TradeServices.SYNCH);
            return Page.html(new Html("Buy", user).order(order).finish());
        } catch (TradeException e) {
            return business("Buy", user, e);
        }
    }

    private Page sell(Session s, String holdingId) throws RemoteException {
        String user = s.userId;
        if (user == null) {
            return loginPage("Log in to sell.");
        }
        long id;
        try {
            id = Long.parseLong(holdingId == null ? "" : holdingId.trim());
        } catch (NumberFormatException e) {
            return Page.html(new Html("Sell", user).error("holdingID must be a number, was '" + holdingId + "'").finish());
        }
        try {
            OrderDataBean order = trade.sell(user, id, TradeServices.SYNCH);
            return Page.html(new Html("Sell", user).order(order).finish());
        } catch (TradeException e) {
            return business("Sell", user, e);
        }
    }

    /**
     * The portfolio's sell link for a symbol, as a scripted session can follow it without knowing
     * holding IDs: sells the user's oldest holding of {@code symbol}.
     */
    private Page sellSymbol(Session s, String symbol) throws RemoteException {
        if (s.userId == null) {
            return loginPage("Log in to sell.");
        }
        try {
            for (HoldingDataBean h : trade.getHoldings(s.userId)) {
                if (h.getSymbol().equals(symbol)) {
                    return sell(s, Long.toString(h.getHoldingId()));
                }
            }
            return Page.html(new Html("Sell", s.userId).error("you hold no " + symbol).finish());
        } catch (TradeException e) {
            return business("Sell", s.userId, e);
        }
    }

    private Page scenario(Session s) throws RemoteException {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (s.userId == null) {
            String user = userDeck.get(Math.floorMod(deckIndex.getAndIncrement(), userDeck.size()));
            return login(s, user, "xxx");
        }
        return switch (mix.pick(r.nextInt(mix.total()))) {
            case HOME -> home(s, null);
            case QUOTE -> {
                StringBuilder symbols = new StringBuilder();
                int n = 1 + r.nextInt(10);
                for (int i = 0; i < n; i++) {
                    symbols.append(i == 0 ? "" : ",").append("s:").append(r.nextInt(quotes));
                }
                yield quote(s, symbols.toString());
            }
            case LOGIN -> login(s, s.userId, "xxx");
            case LOGOUT -> logout(s);
            case REGISTER -> {
                Fields f = new Fields();
                String uid = registerPrefix + registered.incrementAndGet();
                f.put("uid", uid);
                f.put("passwd", "xxx");
                f.put("fullname", "Rnd " + uid);
                f.put("address", r.nextInt(1000) + " Oak St.");
                f.put("email", uid.replace(':', '.') + "@daytrader.example");
                f.put("creditcard", "1234-5678-" + (1000 + r.nextInt(9000)));
                f.put("money", Integer.toString(1_000_000));
                yield register(s, f);
            }
            case ACCOUNT -> account(s, null);
            case PORTFOLIO -> portfolio(s, null);
            case BUY -> scenarioBuy(s, r);
            case SELL -> {
                try {
                    List<HoldingDataBean> holdings = trade.getHoldings(s.userId);
                    if (holdings.isEmpty()) {
                        yield scenarioBuy(s, r); // a sell with an empty portfolio becomes a buy
                    }
                    yield sell(s, Long.toString(holdings.get(r.nextInt(holdings.size())).getHoldingId()));
                } catch (TradeException e) {
                    yield business("Sell", s.userId, e);
                }
            }
            case UPDATE -> {
                Fields f = new Fields();
                f.put("fullname", "User " + r.nextInt(1_000_000));
                f.put("address", r.nextInt(1000) + " Market St.");
                yield update(s, f);
            }
        };
    }

    private Page scenarioBuy(Session s, ThreadLocalRandom r) throws RemoteException {
        return buy(s, "s:" + r.nextInt(quotes), Integer.toString(1 + r.nextInt(100)));
    }

    private Page poison(String millis) throws RemoteException {
        long ms;
        try {
            ms = millis == null ? 0 : Long.parseLong(millis.trim());
        } catch (NumberFormatException e) {
            return new Page(400, "text/plain; charset=utf-8", "millis must be a whole number, was '" + millis + "'\n");
        }
        if (ms < 0 || ms > MAX_POISON_MILLIS) {
            return new Page(400, "text/plain; charset=utf-8", "millis must be 0 (the default, 4 s) to " + MAX_POISON_MILLIS
                    + ", was " + ms + "\n");
        }
        long t0 = nanoClock.getAsLong();
        long arrays = trade.poison(ms);
        return Page.text(String.format("poison: allocated %,d arrays of 10 KB in %.2f s%n", arrays,
                (nanoClock.getAsLong() - t0) / 1e9));
    }

    private Page timeSeries(String tier, String since) throws RemoteException {
        long s;
        try {
            s = since == null ? 0 : Long.parseLong(since.trim());
        } catch (NumberFormatException e) {
            return new Page(400, "text/plain; charset=utf-8", "since must be an epoch second, was '" + since + "'\n");
        }
        return new Page(200, "text/csv; charset=utf-8",
                TimeSeriesCsv.format("backend".equals(tier) ? trade.getTimeSeries(s) : recorder.since(s)));
    }

    private Page summary(String tier, boolean reset) throws RemoteException {
        List<LatencySummary> list = "backend".equals(tier) ? trade.getLatencySummary(reset)
                : recorder.summary(reset, System.currentTimeMillis() / 1000);
        StringBuilder sb = new StringBuilder();
        for (LatencySummary l : list) {
            sb.append(l).append('\n');
        }
        return Page.text(sb.toString());
    }

    private Page audit() throws RemoteException {
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
        return new Page(r.isConsistent() ? 200 : 500, "text/plain; charset=utf-8", sb.toString());
    }

    private static Page business(String title, String user, TradeException e) {
        return Page.html(new Html(title, user).error(e.getMessage()).finish());
    }

    private static String or(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
