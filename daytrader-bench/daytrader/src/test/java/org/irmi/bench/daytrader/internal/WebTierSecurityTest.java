package org.irmi.bench.daytrader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.irmi.bench.daytrader.TradeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The web tier's security rules, each through a real Jetty serving {@link WebTier} on a real
 * backend ({@link TradeServicesImpl} on embedded H2), driven over HTTP by the JDK's client (and a
 * raw socket where a client would refuse to send what an attacker sends). The web tier's clock is
 * a manual one, so sessions expire without sleeping.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebTierSecurityTest {
    private static final Pattern CSRF_IN_PAGE = Pattern.compile("name=\"csrf\" value=\"([0-9a-f]{32})\"");
    private static final Pattern SESSION_COOKIE = Pattern.compile("DTSESSION=([^;]*)");

    private final AtomicLong clock = new AtomicLong(TimeUnit.HOURS.toNanos(1));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private HikariDataSource pool;
    private TradeServicesImpl trade;
    private Server server;
    private OperatorCredential operator;
    private String base;
    private String origin;
    private int port;

    @BeforeAll
    void start() throws Exception {
        pool = TradeDatabase.pool("jdbc:h2:mem:websec" + System.nanoTime() + ";DB_CLOSE_DELAY=-1", null, 4);
        TradeDatabase.createAndPopulate(pool, 50, 20, 1);
        // The backend keeps real time (its poison loop runs on it); the web tier's sessions run on the manual clock.
        trade = new TradeServicesImpl(pool, new TimeSeriesRecorder(3600), System::nanoTime, System::currentTimeMillis);
        operator = OperatorCredential.random(new SecureRandom());
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new WebTier(trade, new TimeSeriesRecorder(3600), clock::get, ScenarioMix.STANDARD, 50, 20, operator));
        server.start();
        port = connector.getLocalPort();
        origin = "http://127.0.0.1:" + port;
        base = origin + "/daytrader/";
    }

    @AfterAll
    void stop() throws Exception {
        server.stop();
        trade.shutdown();
        pool.close();
    }

    // ------------------------------------------------------------------ HTTP helpers

    private HttpResponse<String> send(String method, String page, String form, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + page)).timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        if (form != null) {
            b.header("Content-Type", "application/x-www-form-urlencoded");
        }
        b.method(method, form == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(form));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String sessionId(HttpResponse<String> r) {
        for (String c : r.headers().allValues("Set-Cookie")) {
            Matcher m = SESSION_COOKIE.matcher(c);
            if (m.find()) {
                return m.group(1);
            }
        }
        return null;
    }

    private static String csrfIn(String page) {
        Matcher m = CSRF_IN_PAGE.matcher(page);
        assertThat(m.find()).as("a CSRF token in " + page).isTrue();
        return m.group(1);
    }

    /** A browser: its session cookie and the CSRF token of the pages it was served. */
    private final class Browser {
        String id;
        String csrf;
        HttpResponse<String> last;

        Browser login(String uid) throws Exception {
            last = send("POST", "login", "uid=" + uid + "&passwd=xxx" + (csrf == null ? "" : "&csrf=" + csrf),
                    cookieAndOrigin());
            assertThat(last.statusCode()).as(last.body()).isEqualTo(200);
            assertThat(last.body()).contains("Welcome, " + uid);
            id = sessionId(last);
            csrf = csrfIn(last.body());
            return this;
        }

        String[] cookieAndOrigin(String... more) {
            List<String> h = new ArrayList<>(List.of("Origin", origin));
            if (id != null) {
                h.addAll(List.of("Cookie", "DTSESSION=" + id));
            }
            h.addAll(List.of(more));
            return h.toArray(String[]::new);
        }

        HttpResponse<String> get(String page) throws Exception {
            return last = send("GET", page, null, id == null ? new String[0] : new String[] {"Cookie", "DTSESSION=" + id});
        }

        HttpResponse<String> post(String page, String form, String... headers) throws Exception {
            return last = send("POST", page, form, cookieAndOrigin(headers));
        }
    }

    /** The backend's latency summary line of the poison operation, or "" before any ran. */
    private String poisonLine() throws Exception {
        return trade.getLatencySummary(false).stream().map(Object::toString).filter(l -> l.startsWith("poison "))
                .findFirst().orElse("");
    }

    private int orders(String uid) throws Exception {
        return trade.getOrders(uid).size();
    }

    // ------------------------------------------------------------------ cookies and sessions

    @Test
    void shouldSetAnHttpOnlySameSiteStrictCookieWhenSigningIn() throws Exception {
        HttpResponse<String> r = send("POST", "login", "uid=uid:1&passwd=xxx", "Origin", origin);

        String cookie = r.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).startsWith("DTSESSION=").containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Strict")
                .contains("Path=/daytrader");
        assertThat(sessionId(r)).matches("[0-9a-f]{32}");
    }

    @Test
    void shouldGiveAnonymousVisitorsNoSessionWhenTheyOnlyRead() throws Exception {
        HttpResponse<String> r = send("GET", "home", null);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("Log in");
        assertThat(r.headers().allValues("Set-Cookie")).isEmpty();
    }

    @Test
    void shouldIssueANewSessionIdAtEveryLoginAndEndTheOldOneWhenSignedInAgain() throws Exception {
        Browser b = new Browser().login("uid:2");
        String first = b.id;

        b.login("uid:2");

        assertThat(b.id).isNotEqualTo(first);
        assertThat(send("GET", "portfolio", null, "Cookie", "DTSESSION=" + first).body()).contains("Log in to see your portfolio");
        assertThat(b.get("portfolio").body()).contains("holdings, purchase basis");
    }

    @Test
    void shouldIgnoreASessionIdTheClientChoseWhenItLogsIn() throws Exception {
        String fixed = "0123456789abcdef0123456789abcdef"; // an attacker's id planted in the victim's browser

        HttpResponse<String> r = send("POST", "login", "uid=uid:3&passwd=xxx", "Origin", origin, "Cookie", "DTSESSION=" + fixed);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(sessionId(r)).isNotNull().isNotEqualTo(fixed);
        assertThat(send("GET", "portfolio", null, "Cookie", "DTSESSION=" + fixed).body()).contains("Log in to see your portfolio");
    }

    @Test
    void shouldExpireASessionWhenItIsIdleForThirtyMinutes() throws Exception {
        Browser b = new Browser().login("uid:4");
        clock.addAndGet(WebSessions.IDLE_NANOS - 1);
        assertThat(b.get("portfolio").body()).as("29:59.999 idle").contains("holdings, purchase basis");

        clock.addAndGet(WebSessions.IDLE_NANOS);

        assertThat(b.get("portfolio").body()).contains("Log in to see your portfolio");
        assertThat(b.post("buy", "symbol=s:1&quantity=1&csrf=" + b.csrf).statusCode()).isEqualTo(403);
    }

    @Test
    void shouldExpireASessionAtTheEndOfItsLifetimeWhenItIsBusy() throws Exception {
        Browser b = new Browser().login("uid:5");
        long step = WebSessions.IDLE_NANOS / 2;
        long elapsed = 0;
        while (elapsed + step < WebSessions.LIFETIME_NANOS) {
            clock.addAndGet(step);
            elapsed += step;
            assertThat(b.get("portfolio").body()).as("after %d min", TimeUnit.NANOSECONDS.toMinutes(elapsed))
                    .contains("holdings, purchase basis");
        }

        clock.addAndGet(step);

        assertThat(b.get("portfolio").body()).contains("Log in to see your portfolio");
    }

    @Test
    void shouldEndTheSessionAndClearTheCookieWhenLoggingOut() throws Exception {
        Browser b = new Browser().login("uid:6");
        String id = b.id;

        HttpResponse<String> r = b.post("logout", "csrf=" + b.csrf);

        assertThat(r.body()).contains("Logged off");
        assertThat(r.headers().firstValue("Set-Cookie").orElseThrow()).startsWith("DTSESSION=;").contains("Max-Age=0");
        assertThat(send("GET", "portfolio", null, "Cookie", "DTSESSION=" + id).body()).contains("Log in to see your portfolio");
    }

    // ------------------------------------------------------------------ methods

    @Test
    void shouldRefuseAGetOfAChangeOfStateWith405AndAllow() throws Exception {
        Browser b = new Browser().login("uid:7");
        int before = orders("uid:7");

        HttpResponse<String> r = b.get("buy?symbol=s:1&quantity=5&csrf=" + b.csrf);

        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).hasValue("POST");
        assertThat(orders("uid:7")).isEqualTo(before);
        for (String page : List.of("logout", "update", "sell", "scenario", "poison")) {
            assertThat(send("GET", page, null).statusCode()).as(page).isEqualTo(405);
        }
    }

    @Test
    void shouldRefuseMethodsAPageDoesNotTakeWith405() throws Exception {
        HttpResponse<String> post = send("POST", "home", "", "Origin", origin);
        HttpResponse<String> put = send("PUT", "buy", "symbol=s:1");
        HttpResponse<String> delete = send("DELETE", "login", null);

        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET");
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(delete.statusCode()).isEqualTo(405);
        assertThat(delete.headers().firstValue("Allow")).hasValue("GET, POST");
    }

    @Test
    void shouldRenderEveryChangeOfStateAsAPostFormCarryingTheSessionsToken() throws Exception {
        Browser b = new Browser().login("uid:8");
        b.post("buy", "symbol=s:2&quantity=1&csrf=" + b.csrf);

        String quotes = b.get("quote?symbols=s:1").body();
        String portfolio = b.get("portfolio").body();
        String account = b.get("account").body();

        for (String page : List.of(quotes, portfolio, account)) {
            assertThat(page).doesNotContain("href=\"/daytrader/logout", "href=\"/daytrader/sell", "href=\"/daytrader/buy")
                    .contains("<form action=\"/daytrader/logout\" method=\"post\"")
                    .contains("name=\"csrf\" value=\"" + b.csrf + "\"");
        }
        assertThat(quotes).contains("<form action=\"/daytrader/buy\" method=\"post\"");
        assertThat(portfolio).contains("<form action=\"/daytrader/sell\" method=\"post\"");
        assertThat(account).contains("<form action=\"/daytrader/update\" method=\"post\"");
        assertThat(account).as("the password is never sent back").contains("name=\"passwd\" type=\"password\" value=\"\"")
                .doesNotContain("value=\"xxx\"");
    }

    // ------------------------------------------------------------------ CSRF

    @Test
    void shouldRefuseAPostWithoutTheSessionsCsrfTokenWith403() throws Exception {
        Browser b = new Browser().login("uid:9");
        int before = orders("uid:9");
        String other = new Browser().login("uid:10").csrf;

        assertThat(b.post("buy", "symbol=s:1&quantity=1").statusCode()).isEqualTo(403);
        assertThat(b.post("buy", "symbol=s:1&quantity=1&csrf=" + other).statusCode()).as("another session's token").isEqualTo(403);
        assertThat(b.post("buy", "symbol=s:1&quantity=1&csrf=" + b.csrf.toUpperCase()).statusCode()).isEqualTo(403);
        assertThat(b.post("update", "fullname=Mallory").statusCode()).isEqualTo(403);
        assertThat(b.post("logout", "").statusCode()).isEqualTo(403);
        assertThat(orders("uid:9")).isEqualTo(before);
        assertThat(b.get("account").body()).doesNotContain("Mallory");
    }

    @Test
    void shouldAcceptThePostWhenTheTokenIsInTheFormOrInTheHeader() throws Exception {
        Browser b = new Browser().login("uid:11");
        int before = orders("uid:11");

        HttpResponse<String> field = b.post("buy", "symbol=s:1&quantity=2&csrf=" + b.csrf);
        HttpResponse<String> header = b.post("buy", "symbol=s:1&quantity=3", "X-CSRF-Token", b.csrf);

        assertThat(field.statusCode()).isEqualTo(200);
        assertThat(field.body()).contains("buy 2.0 x s:1");
        assertThat(header.body()).contains("buy 3.0 x s:1");
        assertThat(orders("uid:11")).isEqualTo(before + 2);
    }

    @Test
    void shouldRefuseAPostFromAnotherSiteEvenWithTheToken() throws Exception {
        Browser b = new Browser().login("uid:12");

        HttpResponse<String> evilOrigin = send("POST", "buy", "symbol=s:1&quantity=1&csrf=" + b.csrf, "Cookie",
                "DTSESSION=" + b.id, "Origin", "https://evil.example");
        HttpResponse<String> crossSite = send("POST", "buy", "symbol=s:1&quantity=1&csrf=" + b.csrf, "Cookie",
                "DTSESSION=" + b.id, "Sec-Fetch-Site", "cross-site");

        assertThat(evilOrigin.statusCode()).isEqualTo(403);
        assertThat(crossSite.statusCode()).isEqualTo(403);
    }

    @Test
    void shouldRefuseALoginForgedByAnotherSiteWith403() throws Exception {
        HttpResponse<String> evil = send("POST", "login", "uid=uid:13&passwd=xxx", "Origin", "https://evil.example");
        HttpResponse<String> opaque = send("POST", "login", "uid=uid:13&passwd=xxx", "Origin", "null");
        HttpResponse<String> none = send("POST", "login", "uid=uid:13&passwd=xxx");
        HttpResponse<String> otherPort = send("POST", "register", "uid=x:1&passwd=p", "Origin", "http://127.0.0.1:1");

        for (HttpResponse<String> r : List.of(evil, opaque, none, otherPort)) {
            assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
            assertThat(r.headers().allValues("Set-Cookie")).isEmpty();
        }
        assertThat(none.body()).contains("Origin");
    }

    @Test
    void shouldRefuseALoginFromASessionWithoutThatSessionsToken() throws Exception {
        Browser b = new Browser().login("uid:14");

        HttpResponse<String> r = b.post("login", "uid=uid:15&passwd=xxx");

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(b.get("home").body()).contains("signed in as <b>uid:14</b>");
    }

    @Test
    void shouldAdoptTheTokenASessionlessLoginBringsWhenItIsWellFormed() throws Exception {
        String mine = "00112233445566778899aabbccddeeff";

        HttpResponse<String> r = send("POST", "login", "uid=uid:16&passwd=xxx&csrf=" + mine, "Origin", origin);
        HttpResponse<String> malformed = send("POST", "login", "uid=uid:16&passwd=xxx&csrf=short", "Origin", origin);

        assertThat(csrfIn(r.body())).isEqualTo(mine);
        HttpResponse<String> buy = send("POST", "buy", "symbol=s:1&quantity=1&csrf=" + mine, "Origin", origin, "Cookie",
                "DTSESSION=" + sessionId(r));
        assertThat(buy.body()).contains("buy 1.0 x s:1");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.headers().allValues("Set-Cookie")).isEmpty();
    }

    // ------------------------------------------------------------------ the operator

    @Test
    void shouldRefuseTheOperatorsPagesWithoutItsTokenWith401() throws Exception {
        Browser user = new Browser().login("uid:17");
        String poisonBefore = poisonLine();
        List<HttpResponse<String>> refused = List.of(
                send("POST", "poison", "millis=1"),
                user.post("poison", "millis=1&csrf=" + user.csrf),
                send("POST", "poison", "millis=1", "Authorization", "Bearer " + "0".repeat(64)),
                send("POST", "poison", "millis=1", "Authorization", "Basic " + operator.hex()),
                send("GET", "audit", null),
                send("POST", "summary", "tier=web"),
                user.post("scenario", "csrf=" + user.csrf));

        for (HttpResponse<String> r : refused) {
            assertThat(r.statusCode()).as(r.request().uri() + ": " + r.body()).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate").orElseThrow()).startsWith("Bearer realm=");
        }
        assertThat(poisonLine()).as("no poison ran").isEqualTo(poisonBefore);
    }

    @Test
    void shouldServeTheOperatorsPagesWithItsBearerToken() throws Exception {
        String bearer = "Bearer " + operator.hex();

        HttpResponse<String> poison = send("POST", "poison", "millis=1", "Authorization", bearer);
        HttpResponse<String> audit = send("GET", "audit", null, "Authorization", bearer);
        HttpResponse<String> scenario = send("POST", "scenario", null, "Authorization", bearer);

        assertThat(poison.statusCode()).isEqualTo(200);
        assertThat(poison.body()).contains("allocated");
        assertThat(audit.body()).contains("consistent=true");
        assertThat(scenario.statusCode()).isEqualTo(200);
        assertThat(sessionId(scenario)).as("the scenario signs a deck user in").isNotNull();
    }

    @Test
    void shouldNeedNoCsrfTokenWhenTheOperatorsBearerTokenIsSent() throws Exception {
        Browser b = new Browser().login("uid:18");
        int before = orders("uid:18");

        HttpResponse<String> r = send("POST", "buy", "symbol=s:1&quantity=4", "Cookie", "DTSESSION=" + b.id, "Authorization",
                "Bearer " + operator.hex());

        assertThat(r.body()).contains("buy 4.0 x s:1");
        assertThat(orders("uid:18")).isEqualTo(before + 1);
    }

    @Test
    void shouldRefuseAWrongBearerTokenOnAnyPageWith401() throws Exception {
        HttpResponse<String> r = send("GET", "home", null, "Authorization", "Bearer " + "f".repeat(64));

        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate").orElseThrow()).contains("invalid_token");
    }

    @Test
    void shouldResetTheSummaryOnlyByTheOperatorsPost() throws Exception {
        String bearer = "Bearer " + operator.hex();
        send("GET", "quote?symbols=s:1", null);

        HttpResponse<String> getReset = send("GET", "summary?tier=web&reset=true", null);
        String afterGet = send("GET", "summary?tier=web", null).body();
        HttpResponse<String> postReset = send("POST", "summary", "tier=web", "Authorization", bearer);
        String afterPost = send("GET", "summary?tier=web", null).body();

        assertThat(getReset.statusCode()).isEqualTo(400);
        assertThat(afterGet).containsPattern("(?m)^quote n=[1-9]");
        assertThat(postReset.statusCode()).isEqualTo(200);
        assertThat(postReset.body()).containsPattern("(?m)^quote n=[1-9]");
        assertThat(afterPost).contains("quote n=0 ");
    }

    // ------------------------------------------------------------------ bodies

    @Test
    void shouldRefuseABodyOverEightKibWith413() throws Exception {
        Browser b = new Browser().login("uid:19");
        String big = "symbol=s:1&quantity=1&csrf=" + b.csrf + "&pad=" + "x".repeat(FormBody.MAX_BODY_BYTES);

        HttpResponse<String> declared = b.post("buy", big);
        HttpResponse<String> chunked = http.send(HttpRequest.newBuilder(URI.create(base + "buy"))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Origin", origin)
                .header("Cookie", "DTSESSION=" + b.id)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                        big.getBytes(StandardCharsets.US_ASCII)))).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(chunked.statusCode()).isEqualTo(413);
        assertThat(rawStatus("POST /daytrader/buy HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded"
                + "\r\nContent-Length: 1000000000\r\n\r\n")).as("refused on the declared length, nothing sent").isEqualTo(413);
    }

    @Test
    void shouldRefuseMoreThanSixtyFourFieldsWith400() throws Exception {
        Browser b = new Browser().login("uid:20");
        StringBuilder form = new StringBuilder("symbol=s:1&quantity=1&csrf=" + b.csrf);
        for (int i = 3; i < FormBody.MAX_FIELDS + 1; i++) {
            form.append("&f").append(i).append("=1");
        }

        HttpResponse<String> r = b.post("buy", form.toString());

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("at most 64 fields");
    }

    @Test
    void shouldRefuseABodyThatIsNotAFormWith415() throws Exception {
        Browser b = new Browser().login("uid:21");

        HttpResponse<String> json = http.send(HttpRequest.newBuilder(URI.create(base + "buy"))
                .header("Content-Type", "application/json").header("Origin", origin).header("Cookie", "DTSESSION=" + b.id)
                .header("X-CSRF-Token", b.csrf).POST(HttpRequest.BodyPublishers.ofString("{\"symbol\":\"s:1\"}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(json.statusCode()).isEqualTo(415);
    }

    @Test
    void shouldRefuseAFieldGivenTwiceWith400() throws Exception {
        Browser b = new Browser().login("uid:22");

        assertThat(b.post("buy", "symbol=s:1&quantity=1&csrf=" + b.csrf + "&csrf=" + b.csrf).statusCode()).isEqualTo(400);
    }

    // ------------------------------------------------------------------ bounds

    @Test
    void shouldRefuseAnOpeningBalanceOutOfBoundsWhenRegistering() throws Exception {
        for (String money : List.of("1000000000.01", "-1", "10.001", "1e12", "lots")) {
            String uid = "sec:" + Math.abs(money.hashCode());

            HttpResponse<String> r = send("POST", "register", "uid=" + uid + "&passwd=p&money=" + money, "Origin", origin);

            assertThat(r.body()).as(money).contains("opening balance must be");
            assertThat(r.headers().allValues("Set-Cookie")).isEmpty();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> trade.getAccountData(uid)).isInstanceOf(TradeException.class);
        }
        HttpResponse<String> max = send("POST", "register", "uid=sec:max&passwd=p&money=1000000000.00", "Origin", origin);
        assertThat(max.body()).contains("Welcome, sec:max");
        assertThat(trade.getAccountData("sec:max").getOpenBalance()).isEqualByComparingTo(new BigDecimal("1000000000"));
    }

    @Test
    void shouldRefuseAProfileFieldLongerThanTheDatabaseHolds() throws Exception {
        HttpResponse<String> r = send("POST", "register", "uid=sec:long&passwd=p&fullname=" + "n".repeat(251), "Origin", origin);

        assertThat(r.body()).contains("fullname may be at most 250 characters");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> trade.getAccountData("sec:long"))
                .isInstanceOf(TradeException.class);
    }

    @Test
    void shouldRefuseAPoisonOutOfBoundsWith400() throws Exception {
        String bearer = "Bearer " + operator.hex();
        for (String millis : List.of("60001", "-1", "4s", "99999999999999999999")) {
            HttpResponse<String> r = send("POST", "poison", "millis=" + millis, "Authorization", bearer);

            assertThat(r.statusCode()).as(millis).isEqualTo(400);
            assertThat(r.body()).contains("millis must be");
        }
    }

    @Test
    void shouldRefuseABuyQuantityOutOfBounds() throws Exception {
        Browser b = new Browser().login("uid:23");
        int before = orders("uid:23");

        for (String q : List.of("0", "-5", "NaN", "1000001", "Infinity")) {
            assertThat(b.post("buy", "symbol=s:1&quantity=" + q + "&csrf=" + b.csrf).body()).as(q).contains("quantity must be");
        }
        assertThat(orders("uid:23")).isEqualTo(before);
    }

    // ------------------------------------------------------------------ headers

    @Test
    void shouldForbidFramingAndSniffingWhenServingAPage() throws Exception {
        HttpResponse<String> r = send("GET", "home", null);

        assertThat(r.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(r.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("frame-ancestors 'none'",
                "form-action 'self'");
        assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    /** Sends {@code request} on a raw socket and returns the reply's status code. */
    private int rawStatus(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] head = new byte[12];
            int n = in.readNBytes(head, 0, 12);
            String line = new String(head, 0, n, StandardCharsets.US_ASCII);
            assertThat(line).startsWith("HTTP/1.1 ");
            return Integer.parseInt(line.substring(9, 12));
        }
    }
}
