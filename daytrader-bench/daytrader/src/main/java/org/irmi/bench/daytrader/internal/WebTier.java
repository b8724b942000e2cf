package org.irmi.bench.daytrader.internal;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
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
 * The web tier's pages, as one Jetty handler that calls the backend over RMI-IIOP.
 *
 * <p>Pages ({@link WebPage} is the table of who may use which with GET and POST), under
 * {@code /daytrader/}: {@code home, quote, portfolio, account} read (GET); {@code login} and
 * {@code register} show their form (GET) and sign a session in (POST); {@code logout, update, buy,
 * sell} change state (POST; {@code sell} takes {@code holdingID=N}, or {@code symbol=S} for the
 * oldest holding of S, which httperf's scripted sessions use: {@code SessionLog}). The operator's
 * (Bearer token, {@link OperatorCredential}): {@code scenario} (POST) runs one action of the standard
 * mix, {@code poison} (POST {@code millis=N}) calls the backend's poison operation, {@code audit}
 * (GET), and {@code summary} (POST, {@code tier=web|backend}) reads and resets the latency summary.
 * Public read-outs: {@code timeseries.csv?tier=web|backend&since=S}, {@code summary?tier=web|backend}.
 *
 * <p>The rules, in the order they are checked (a security reviewer's checklist; docs/daytrader.md):
 * <ol>
 *   <li>a method the page does not take: 405 with {@code Allow};</li>
 *   <li>an {@code Authorization} header that is not the operator's token, or none on an operator's
 *       page: 401 with {@code WWW-Authenticate: Bearer};</li>
 *   <li>a POST body that is too large (413), not a form (415) or malformed or of too many fields
 *       (400): {@link FormBody};</li>
 *   <li>a POST without the operator's token: an {@code Origin} naming another site, or a
 *       {@code Sec-Fetch-Site} of another site, is refused (403); a sign-in (login, register) must
 *       carry an {@code Origin} of this server (a login forged by another site would sign the
 *       victim's browser in as the attacker); a POST on a session, and a sign-in from a session,
 *       must carry the session's CSRF token (form field {@code csrf} or header
 *       {@code X-CSRF-Token}), compared in constant time (403);</li>
 *   <li>the page's own bounds: an opening balance of 0 to {@link #MAX_OPENING_BALANCE} with at most 2
 *       decimals, profile fields of at most {@link #MAX_FIELD_CHARS} characters, a poison of at most
 *       {@link #MAX_POISON_MILLIS} ms (400 for the operator's pages).</li>
 * </ol>
 * Sessions ({@link WebSessions}) exist only for signed-in users; the {@code DTSESSION} cookie is
 * {@code HttpOnly}, {@code SameSite=Strict}, {@code Path=/daytrader} (and {@code Secure} over TLS);
 * every sign-in makes a new session id; sessions expire. A client that cannot read a token from a
 * page (httperf) may choose its session's CSRF token itself by sending a well-formed one
 * ({@code csrf}, 32 hex digits) with a sign-in that has no session: the sign-in is already held to
 * this server's {@code Origin}, so no other site can choose it for a victim.
 *
 * <p>A {@link TradeException} is a business outcome and renders with status 200; a failed backend
 * call ({@link RemoteException} or a CORBA system exception) renders status 500. Each served page's
 * execution time is recorded under its name; refused requests are not. THREAD-SAFE.
 */
final class WebTier extends Handler.Abstract {
    static final String COOKIE = "DTSESSION";
    static final String COOKIE_PATH = "/daytrader";
    /** The form field and the header that carry a session's CSRF token. */
    static final String CSRF_FIELD = "csrf";
    static final String CSRF_HEADER = "X-CSRF-Token";
    private static final int MAX_ORDERS_SHOWN = 50;
    /** The most symbols one quote page looks up (each is a backend call). */
    static final int MAX_QUOTES_SHOWN = 100;
    /** The largest quantity one buy takes. */
    static final double MAX_QUANTITY = 1_000_000;
    /** The largest opening balance {@code register} takes, and the longest {@code poison} call. */
    static final BigDecimal MAX_OPENING_BALANCE = new BigDecimal("1000000000");
    static final long MAX_POISON_MILLIS = 60_000;
    /** The longest user id, password, name, address, e-mail or card number (the database's columns hold 250). */
    static final int MAX_FIELD_CHARS = 250;
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String HTML = "text/html; charset=utf-8";

    private final TradeServices trade;
    private final TimeSeriesRecorder recorder;
    private final LongSupplier nanoClock;
    private final ScenarioMix mix;
    private final int quotes;
    private final List<String> userDeck;
    private final AtomicInteger deckIndex = new AtomicInteger();
    private final AtomicLong registered = new AtomicLong();
    private final WebSessions sessions;
    private final OperatorCredential operator;
    private final String registerPrefix;

    WebTier(TradeServices trade, TimeSeriesRecorder recorder, LongSupplier nanoClock, ScenarioMix mix, int users, int quotes,
            OperatorCredential operator) {
        this.trade = trade;
        this.recorder = recorder;
        this.nanoClock = nanoClock;
        this.mix = mix;
        this.quotes = quotes;
        this.operator = operator;
        this.sessions = new WebSessions(nanoClock);
        List<String> deck = new ArrayList<>(users);
        for (int i = 0; i < users; i++) {
            deck.add("uid:" + i);
        }
        Collections.shuffle(deck);
        this.userDeck = List.copyOf(deck);
        this.registerPrefix = "ru:" + Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36) + ":";
    }

    /** A rendered reply. */
    private record Page(int status, String contentType, String body) {
        static Page html(String body) {
            return new Page(200, HTML, body);
        }

        static Page text(String body) {
            return new Page(200, TEXT, body);
        }

        static Page error(int status, String message) {
            return new Page(status, TEXT, message + "\n");
        }
    }

    /** One request in flight: its parameters, and its session, which a sign-in or logout replaces. */
    private final class Exchange {
        final Request request;
        final Response response;
        final Function<String, String> params;
        WebSessions.Session session;

        Exchange(Request request, Response response, Function<String, String> params, WebSessions.Session session) {
            this.request = request;
            this.response = response;
            this.params = params;
            this.session = session;
        }

        String user() {
            return session == null ? null : session.userId;
        }

        String param(String name) {
            return params.apply(name);
        }

        Html html(String title) {
            return new Html(title, user(), session == null ? null : session.csrfToken());
        }

        /** Signs {@code userId} in on a new session (a new id), ending this request's session. */
        void signIn(String userId, String csrfHex) {
            session = sessions.signIn(userId, csrfHex, session);
            Response.addCookie(response, cookie(session.id, request.isSecure(), -1));
        }

        void signOut() {
            if (session != null) {
                sessions.end(session);
                session = null;
                Response.addCookie(response, cookie("", request.isSecure(), 0));
            }
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        String name = path.startsWith("/daytrader/") ? path.substring("/daytrader/".length())
                : path.equals("/") || path.equals("/daytrader") ? "" : path;
        WebPage page = WebPage.named(name.isEmpty() ? "home" : name);
        Page reply;
        if (page == null) {
            reply = new Page(404, HTML, new Html("Not found", null, null).error("no page " + path).finish());
        } else {
            reply = serve(page, request, response);
        }
        HttpFields.Mutable headers = response.getHeaders();
        headers.put(HttpHeader.CONTENT_TYPE, reply.contentType());
        headers.put(HttpHeader.CACHE_CONTROL, "no-store");
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("X-Frame-Options", "DENY"); // the pages' POST buttons must not be clickable through another site's frame
        headers.put("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self';"
                + " frame-ancestors 'none'; base-uri 'none'");
        headers.put("Referrer-Policy", "same-origin");
        int status = reply.status();
        boolean hasBody = request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
        if (hasBody && (status == 401 || status == 404 || status == 405 || status == 413)) {
            // Refused before its body was read (or read to the end): a client must not send its next request on
            // this connection behind the unread bytes, and Jetty closes it rather than read them.
            headers.put(HttpHeader.CONNECTION, "close");
        }
        response.setStatus(status);
        response.write(true, ByteBuffer.wrap(reply.body().getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

    /** Checks the rules (class Javadoc) in order, then runs the page. */
    private Page serve(WebPage page, Request request, Response response) throws IOException {
        String method = request.getMethod();
        WebPage.Access access = page.access(method);
        if (access == WebPage.Access.NONE) {
            response.getHeaders().put(HttpHeader.ALLOW, page.allow());
            return Page.error(405, method + " is not allowed on " + page.pageName() + "; use " + page.allow()
                    + ("GET".equals(page.allow()) ? "" : " (a change of state is a POST)"));
        }
        String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        boolean isOperator = authorization != null && operator.admits(authorization);
        if ((authorization != null && !isOperator) || (access == WebPage.Access.OPERATOR && !isOperator)) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, authorization == null ? "Bearer realm=\"daytrader-operator\""
                    : "Bearer realm=\"daytrader-operator\", error=\"invalid_token\"");
            return Page.error(401, (authorization == null ? "the operator's page " + page.pageName() + " needs"
                    : "the Authorization header is not") + " the operator's token: send Authorization: Bearer TOKEN, TOKEN"
                    + " being the content of the web tier's --operator-token-file");
        }
        Function<String, String> params;
        if ("POST".equals(method)) {
            FormBody.Outcome body = FormBody.read(request.getHeaders().get(HttpHeader.CONTENT_TYPE),
                    request.getLength(), Content.Source.asInputStream(request));
            if (body instanceof FormBody.Refused refused) {
                return Page.error(refused.status(), refused.message());
            }
            params = ((FormBody.Parsed) body)::get; // a POST's fields come from its body only, never the query
        } else {
            Fields query = Request.extractQueryParameters(request);
            params = query::getValue;
        }
        WebSessions.Session session = session(request);
        if ("POST".equals(method) && !isOperator) {
            String refusal = forgeryCheck(access, request, session, params);
            if (refusal != null) {
                return Page.error(403, refusal);
            }
        }
        Exchange ex = new Exchange(request, response, params, session);
        long start = nanoClock.getAsLong();
        boolean failed = false;
        Page reply;
        try {
            reply = route(page, method, ex);
        } catch (Exception e) { // RemoteException, CORBA system exceptions, and what a broken reply makes the stub throw
            failed = true;
            reply = new Page(500, HTML, ex.html("Backend failure").error(page.pageName() + ": " + e).finish());
        }
        recorder.record(page == WebPage.TIMESERIES ? "timeseries" : page.pageName(), nanoClock.getAsLong() - start, failed);
        return reply;
    }

    /**
     * The cross-site request forgery rules of a POST not made with the operator's token; null when
     * the request passes, else why it is refused.
     */
    private static String forgeryCheck(WebPage.Access access, Request request, WebSessions.Session session,
                                       Function<String, String> params) {
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        String fetchSite = request.getHeaders().get("Sec-Fetch-Site");
        if (fetchSite != null && !fetchSite.equals("same-origin") && !fetchSite.equals("none")) {
            return "refused: a request sent from another site (Sec-Fetch-Site: " + fetchSite + ")";
        }
        if (origin != null && !isThisServer(origin, request)) {
            return "refused: a request sent from another site (Origin: " + origin + ")";
        }
        if (access == WebPage.Access.SIGN_IN && origin == null) {
            return "refused: a login or registration must carry an Origin header naming this server (browsers send it;"
                    + " a script adds Origin: " + (request.isSecure() ? "https://" : "http://")
                    + request.getHeaders().get(HttpHeader.HOST) + ")";
        }
        boolean needsToken = access == WebPage.Access.SESSION || (access == WebPage.Access.SIGN_IN && session != null);
        if (needsToken) {
            if (session == null) {
                return "refused: no session (not signed in, or the session expired); log in again";
            }
            String presented = params.apply(CSRF_FIELD);
            if (presented == null) {
                presented = request.getHeaders().get(CSRF_HEADER);
            }
            if (!session.csrfMatches(presented)) {
                return "refused: the request lacks this session's CSRF token (form field " + CSRF_FIELD + " or header "
                        + CSRF_HEADER + "); reload the page and submit its form again";
            }
        }
        return null;
    }

    /** True when {@code origin} is this server as the request addressed it (scheme and Host, default ports equal). */
    static boolean isThisServer(String origin, Request request) {
        String host = request.getHeaders().get(HttpHeader.HOST);
        if (host == null) {
            return false;
        }
        String scheme = request.isSecure() ? "https" : "http";
        return normalize(origin).equalsIgnoreCase(normalize(scheme + "://" + host));
    }

    private static String normalize(String origin) {
        String o = origin.trim();
        if (o.endsWith("/")) {
            o = o.substring(0, o.length() - 1);
        }
        if (o.regionMatches(true, 0, "http://", 0, 7) && o.endsWith(":80")) {
            return o.substring(0, o.length() - 3);
        }
        if (o.regionMatches(true, 0, "https://", 0, 8) && o.endsWith(":443")) {
            return o.substring(0, o.length() - 4);
        }
        return o;
    }

    /** The live session the request's cookie names, or null. */
    private WebSessions.Session session(Request request) {
        for (HttpCookie c : Request.getCookies(request)) {
            if (COOKIE.equals(c.getName())) {
                WebSessions.Session s = sessions.find(c.getValue());
                if (s != null) {
                    return s;
                }
            }
        }
        return null;
    }

    private static HttpCookie cookie(String value, boolean secure, long maxAgeSeconds) {
        HttpCookie.Builder b = HttpCookie.build(COOKIE, value).path(COOKIE_PATH).httpOnly(true)
                .sameSite(HttpCookie.SameSite.STRICT).secure(secure);
        if (maxAgeSeconds >= 0) {
            b.maxAge(maxAgeSeconds);
        }
        return b.build();
    }

    private Page route(WebPage page, String method, Exchange ex) throws RemoteException {
        boolean post = "POST".equals(method);
        return switch (page) {
            case HOME -> home(ex, null);
            case LOGIN -> post ? login(ex, ex.param("uid"), ex.param("passwd")) : loginPage(ex, null);
            case LOGOUT -> logout(ex);
            case REGISTER -> post ? register(ex, ex.params) : Page.html(ex.html("Register").registerForm().finish());
            case QUOTE -> quote(ex, ex.param("symbols"));
            case PORTFOLIO -> portfolio(ex, null);
            case ACCOUNT -> account(ex, null);
            case UPDATE -> update(ex, ex.params);
            case BUY -> buy(ex, ex.param("symbol"), ex.param("quantity"));
            case SELL -> ex.param("symbol") != null && ex.param("holdingID") == null
                    ? sellSymbol(ex, ex.param("symbol")) : sell(ex, ex.param("holdingID"));
            case SCENARIO -> scenario(ex);
            case POISON -> poison(ex.param("millis"));
            case TIMESERIES -> timeSeries(ex.param("tier"), ex.param("since"));
            case SUMMARY -> post || ex.param("reset") == null ? summary(ex.param("tier"), post)
                    : Page.error(400, "a reset changes state: POST summary with tier=web|backend and the operator's token");
            case AUDIT -> audit();
        };
    }

    // ------------------------------------------------------------------ pages

    private Page loginPage(Exchange ex, String message) {
        Html h = ex.html("Log in");
        if (message != null) {
            h.error(message);
        }
        return Page.html(h.loginForm().finish());
    }

    private Page home(Exchange ex, String message) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, message);
        }
        try {
            Html h = ex.html("Home");
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
            return business(ex, "Home", e);
        }
    }

    /**
     * Signs {@code uid} in on a new session. The session's CSRF token is the request's {@code csrf}
     * field when it carries a well-formed one (a scripted client's own; by the rules, the current
     * session's when there is one), else a new random one.
     */
    private Page login(Exchange ex, String uid, String passwd) throws RemoteException {
        if (uid == null) {
            return loginPage(ex, null);
        }
        String proposed = ex.param(CSRF_FIELD);
        if (proposed != null && !WebSessions.isWellFormedToken(proposed)) {
            return Page.error(400, "csrf must be 32 lower-case hex digits (128 random bits) when a login brings it");
        }
        try {
            trade.login(uid, passwd == null ? "" : passwd);
            ex.signIn(uid, proposed);
            return home(ex, "Welcome, " + uid + ".");
        } catch (TradeException e) {
            return loginPage(ex, "Login failed: " + e.getMessage());
        }
    }

    private Page logout(Exchange ex) throws RemoteException {
        String user = ex.user();
        ex.signOut();
        if (user != null) {
            try {
                trade.logout(user);
            } catch (TradeException e) {
                return loginPage(ex, "Logout: " + e.getMessage());
            }
        }
        return loginPage(ex, "Logged off.");
    }

    private Page register(Exchange ex, Function<String, String> p) throws RemoteException {
        String uid = p.apply("uid");
        if (uid == null) {
            return Page.html(ex.html("Register").registerForm().finish());
        }
        String tooLong = tooLong(p, "uid", "passwd", "fullname", "address", "email", "creditcard");
        if (tooLong != null) {
            return Page.html(ex.html("Register").error(tooLong).registerForm().finish());
        }
        try {
            String m = p.apply("money");
            BigDecimal money = new BigDecimal(m == null ? "10000" : m.trim());
            if (money.signum() < 0 || money.compareTo(MAX_OPENING_BALANCE) > 0 || money.scale() > 2) {
                return Page.html(ex.html("Register").error("opening balance must be 0 to 1,000,000,000 with at most"
                        + " 2 decimals").registerForm().finish());
            }
            String passwd = p.apply("passwd") == null ? "xxx" : p.apply("passwd");
            trade.register(uid, passwd, p.apply("fullname"), p.apply("address"), p.apply("email"), p.apply("creditcard"), money);
            return login(ex, uid, passwd);
        } catch (NumberFormatException e) {
            return Page.html(ex.html("Register").error("opening balance must be a number").registerForm().finish());
        } catch (TradeException e) {
            return Page.html(ex.html("Register").error(e.getMessage()).registerForm().finish());
        }
    }

    /** The first of {@code fields} longer than {@link #MAX_FIELD_CHARS}, as a message; null when none is. */
    private static String tooLong(Function<String, String> p, String... fields) {
        for (String f : fields) {
            String v = p.apply(f);
            if (v != null && v.length() > MAX_FIELD_CHARS) {
                return f + " may be at most " + MAX_FIELD_CHARS + " characters, was " + v.length();
            }
        }
        return null;
    }

    private Page quote(Exchange ex, String symbols) throws RemoteException {
        List<QuoteDataBean> found = new ArrayList<>();
        Html h = ex.html("Quotes");
        String[] list = (symbols == null || symbols.isBlank() ? "s:0,s:1,s:2,s:3,s:4" : symbols).split("[,\\s]+");
        if (list.length > MAX_QUOTES_SHOWN) {
            h.error("at most " + MAX_QUOTES_SHOWN + " symbols at once; showing the first " + MAX_QUOTES_SHOWN);
        }
        for (int i = 0; i < list.length && i < MAX_QUOTES_SHOWN; i++) {
            if (list[i].isEmpty()) {
                continue;
            }
            try {
                found.add(trade.getQuote(list[i]));
            } catch (TradeException e) {
                h.error(e.getMessage());
            }
        }
        return Page.html(h.quotes(found).finish());
    }

    private Page portfolio(Exchange ex, String message) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to see your portfolio.");
        }
        try {
            Html h = ex.html("Portfolio");
            if (message != null) {
                h.p(message);
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
            return business(ex, "Portfolio", e);
        }
    }

    private Page account(Exchange ex, String message) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to see your account.");
        }
        try {
            Html h = ex.html("Account");
            if (message != null) {
                h.p(message);
            }
            return Page.html(h.account(trade.getAccountData(user)).profileForm(trade.getAccountProfileData(user))
                    .orders(trade.getOrders(user), MAX_ORDERS_SHOWN).finish());
        } catch (TradeException e) {
            return business(ex, "Account", e);
        }
    }

    private Page update(Exchange ex, Function<String, String> p) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to update your profile.");
        }
        String tooLong = tooLong(p, "passwd", "fullname", "address", "email", "creditcard");
        if (tooLong != null) {
            return account(ex, tooLong);
        }
        try {
            AccountProfileDataBean old = trade.getAccountProfileData(user);
            trade.updateAccountProfile(new AccountProfileDataBean(user, or(p.apply("passwd"), old.getPassword()),
                    or(p.apply("fullname"), old.getFullName()), or(p.apply("address"), old.getAddress()),
                    or(p.apply("email"), old.getEmail()), or(p.apply("creditcard"), old.getCreditCard())));
            return account(ex, "Profile updated.");
        } catch (TradeException e) {
            return business(ex, "Update profile", e);
        }
    }

    private Page buy(Exchange ex, String symbol, String quantity) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to buy.");
        }
        double q;
        try {
            q = Double.parseDouble(quantity == null ? "" : quantity.trim());
        } catch (NumberFormatException e) {
            return Page.html(ex.html("Buy").error("quantity must be a number, was '" + quantity + "'").finish());
        }
        if (!(q > 0 && q <= MAX_QUANTITY)) {
            return Page.html(ex.html("Buy").error("quantity must be more than 0 and at most " + (long) MAX_QUANTITY
                    + ", was " + quantity).finish());
        }
        try {
            OrderDataBean order = trade.buy(user, symbol == null ? "" : symbol, q, TradeServices.SYNCH);
            return Page.html(ex.html("Buy").order(order).finish());
        } catch (TradeException e) {
            return business(ex, "Buy", e);
        }
    }

    private Page sell(Exchange ex, String holdingId) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to sell.");
        }
        long id;
        try {
            id = Long.parseLong(holdingId == null ? "" : holdingId.trim());
        } catch (NumberFormatException e) {
            return Page.html(ex.html("Sell").error("holdingID must be a number, was '" + holdingId + "'").finish());
        }
        try {
            OrderDataBean order = trade.sell(user, id, TradeServices.SYNCH);
            return Page.html(ex.html("Sell").order(order).finish());
        } catch (TradeException e) {
            return business(ex, "Sell", e);
        }
    }

    /**
     * The portfolio's sell button for a symbol, as a scripted session can press it without knowing
     * holding IDs: sells the user's oldest holding of {@code symbol}.
     */
    private Page sellSymbol(Exchange ex, String symbol) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to sell.");
        }
        try {
            for (HoldingDataBean h : trade.getHoldings(user)) {
                if (h.getSymbol().equals(symbol)) {
                    return sell(ex, Long.toString(h.getHoldingId()));
                }
            }
            return Page.html(ex.html("Sell").error("you hold no " + symbol).finish());
        } catch (TradeException e) {
            return business(ex, "Sell", e);
        }
    }

    private Page scenario(Exchange ex) throws RemoteException {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (ex.user() == null) {
            String user = userDeck.get(Math.floorMod(deckIndex.getAndIncrement(), userDeck.size()));
            return signInAs(ex, user);
        }
        return switch (mix.pick(r.nextInt(mix.total()))) {
            case HOME -> home(ex, null);
            case QUOTE -> {
                StringBuilder symbols = new StringBuilder();
                int n = 1 + r.nextInt(10);
                for (int i = 0; i < n; i++) {
                    symbols.append(i == 0 ? "" : ",").append("s:").append(r.nextInt(quotes));
                }
                yield quote(ex, symbols.toString());
            }
            case LOGIN -> signInAs(ex, ex.user());
            case LOGOUT -> logout(ex);
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
                yield register(ex, f::get);
            }
            case ACCOUNT -> account(ex, null);
            case PORTFOLIO -> portfolio(ex, null);
            case BUY -> scenarioBuy(ex, r);
            case SELL -> {
                try {
                    List<HoldingDataBean> holdings = trade.getHoldings(ex.user());
                    if (holdings.isEmpty()) {
                        yield scenarioBuy(ex, r); // a sell with an empty portfolio becomes a buy
                    }
                    yield sell(ex, Long.toString(holdings.get(r.nextInt(holdings.size())).getHoldingId()));
                } catch (TradeException e) {
                    yield business(ex, "Sell", e);
                }
            }
            case UPDATE -> {
                Map<String, String> f = new HashMap<>();
                f.put("fullname", "User " + r.nextInt(1_000_000));
                f.put("address", r.nextInt(1000) + " Market St.");
                yield update(ex, f::get);
            }
        };
    }

    /** The scenario's sign-in of a user of the deck (the operator's page; the populated users' password is xxx). */
    private Page signInAs(Exchange ex, String user) throws RemoteException {
        try {
            trade.login(user, "xxx");
            ex.signIn(user, null);
            return home(ex, "Welcome, " + user + ".");
        } catch (TradeException e) {
            return loginPage(ex, "Login failed: " + e.getMessage());
        }
    }

    private Page scenarioBuy(Exchange ex, ThreadLocalRandom r) throws RemoteException {
        return buy(ex, "s:" + r.nextInt(quotes), Integer.toString(1 + r.nextInt(100)));
    }

    private Page poison(String millis) throws RemoteException {
        long ms;
        try {
            ms = millis == null ? 0 : Long.parseLong(millis.trim());
        } catch (NumberFormatException e) {
            return Page.error(400, "millis must be a whole number, was '" + millis + "'");
        }
        if (ms < 0 || ms > MAX_POISON_MILLIS) {
            return Page.error(400, "millis must be 0 (the default, 4 s) to " + MAX_POISON_MILLIS + ", was " + ms);
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
            return Page.error(400, "since must be an epoch second, was '" + since + "'");
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
        return new Page(r.isConsistent() ? 200 : 500, TEXT, sb.toString());
    }

    private static Page business(Exchange ex, String title, TradeException e) {
        return Page.html(ex.html(title).error(e.getMessage()).finish());
    }

    private static String or(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
