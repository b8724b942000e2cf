package org.irmi.bench.daytrader.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.rmi.RemoteException;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.irmi.bench.daytrader.TradeException;
import org.irmi.bench.daytrader.TradeServices;

/**
 * The web tier's pages, as one Jetty handler that calls the backend over RMI-IIOP.
 *
 * <p>Pages ({@link WebPage} is the table of who may use which with GET and POST; {@link UserPages}
 * and {@link OperatorPages} render them), under
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
 *   <li>the page's own bounds: an opening balance of 0 to {@link UserPages#MAX_OPENING_BALANCE} with at most 2
 *       decimals, profile fields of at most {@link UserPages#MAX_FIELD_CHARS} characters, a poison of at most
 *       {@link OperatorPages#MAX_POISON_MILLIS} ms (400 for the operator's pages).</li>
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
    /** The form field and the header that carry a session's CSRF token. */
    static final String CSRF_FIELD = "csrf";
    static final String CSRF_HEADER = "X-CSRF-Token";

    private final TimeSeriesRecorder recorder;
    private final LongSupplier nanoClock;
    private final WebSessions sessions;
    private final OperatorCredential operator;
    private final UserPages userPages;
    private final OperatorPages operatorPages;

    WebTier(TradeServices trade, TimeSeriesRecorder recorder, LongSupplier nanoClock, ScenarioMix mix, int users, int quotes,
            OperatorCredential operator) {
        this.recorder = recorder;
        this.nanoClock = nanoClock;
        this.operator = operator;
        this.sessions = new WebSessions(nanoClock);
        this.userPages = new UserPages(trade);
        this.operatorPages = new OperatorPages(trade, userPages, recorder, nanoClock, mix, users, quotes);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        String name = path.startsWith("/daytrader/") ? path.substring("/daytrader/".length())
                : path.equals("/") || path.equals("/daytrader") ? "" : path;
        WebPage page = WebPage.named(name.isEmpty() ? "home" : name);
        WebReply reply;
        if (page == null) {
            reply = new WebReply(404, WebReply.HTML, new Html("Not found", null, null).error("no page " + path).finish());
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
    private WebReply serve(WebPage page, Request request, Response response) throws IOException {
        String method = request.getMethod();
        WebPage.Access access = page.access(method);
        if (access == WebPage.Access.NONE) {
            response.getHeaders().put(HttpHeader.ALLOW, page.allow());
            return WebReply.error(405, method + " is not allowed on " + page.pageName() + "; use " + page.allow()
                    + ("GET".equals(page.allow()) ? "" : " (a change of state is a POST)"));
        }
        String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        boolean isOperator = authorization != null && operator.admits(authorization);
        if ((authorization != null && !isOperator) || (access == WebPage.Access.OPERATOR && !isOperator)) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, authorization == null ? "Bearer realm=\"daytrader-operator\""
                    : "Bearer realm=\"daytrader-operator\", error=\"invalid_token\"");
            return WebReply.error(401, (authorization == null ? "the operator's page " + page.pageName() + " needs"
                    : "the Authorization header is not") + " the operator's token: send Authorization: Bearer TOKEN, TOKEN"
                    + " being the content of the web tier's --operator-token-file");
        }
        Function<String, String> params;
        if ("POST".equals(method)) {
            FormBody.Outcome body = FormBody.read(request.getHeaders().get(HttpHeader.CONTENT_TYPE),
                    request.getLength(), Content.Source.asInputStream(request));
            if (body instanceof FormBody.Refused refused) {
                return WebReply.error(refused.status(), refused.message());
            }
            params = ((FormBody.Parsed) body)::get; // a POST's fields come from its body only, never the query
        } else {
            Fields query = Request.extractQueryParameters(request);
            params = query::getValue;
        }
        WebSessions.Session session = SessionCookie.find(sessions, request);
        if ("POST".equals(method) && !isOperator) {
            String refusal = forgeryCheck(access, request, session, params);
            if (refusal != null) {
                return WebReply.error(403, refusal);
            }
        }
        WebExchange ex = new WebExchange(sessions, request, response, params, session);
        long start = nanoClock.getAsLong();
        boolean failed = false;
        WebReply reply;
        try {
            reply = route(page, method, ex);
        } catch (Exception e) { // RemoteException, CORBA system exceptions, and what a broken reply makes the stub throw
            failed = true;
            reply = new WebReply(500, WebReply.HTML, ex.html("Backend failure").error(page.pageName() + ": " + e).finish());
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

    private WebReply route(WebPage page, String method, WebExchange ex) throws RemoteException {
        boolean post = "POST".equals(method);
        return switch (page) {
            case HOME -> userPages.home(ex, null);
            case LOGIN -> post ? userPages.login(ex, ex.param("uid"), ex.param("passwd")) : userPages.loginPage(ex, null);
            case LOGOUT -> userPages.logout(ex);
            case REGISTER -> post ? userPages.register(ex, ex.params) : WebReply.html(ex.html("Register").registerForm().finish());
            case QUOTE -> userPages.quote(ex, ex.param("symbols"));
            case PORTFOLIO -> userPages.portfolio(ex, null);
            case ACCOUNT -> userPages.account(ex, null);
            case UPDATE -> userPages.update(ex, ex.params);
            case BUY -> userPages.buy(ex, ex.param("symbol"), ex.param("quantity"));
            case SELL -> ex.param("symbol") != null && ex.param("holdingID") == null
                    ? userPages.sellSymbol(ex, ex.param("symbol")) : userPages.sell(ex, ex.param("holdingID"));
            case SCENARIO -> operatorPages.scenario(ex);
            case POISON -> operatorPages.poison(ex.param("millis"));
            case TIMESERIES -> operatorPages.timeSeries(ex.param("tier"), ex.param("since"));
            case SUMMARY -> post || ex.param("reset") == null ? operatorPages.summary(ex.param("tier"), post)
                    : WebReply.error(400, "a reset changes state: POST summary with tier=web|backend and the operator's token");
            case AUDIT -> operatorPages.audit();
        };
    }
}
