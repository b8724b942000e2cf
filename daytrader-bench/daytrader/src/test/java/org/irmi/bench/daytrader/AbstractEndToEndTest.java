package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * DayTrader end to end: the backend and the web tier in their own JVMs, RMI-IIOP between them on
 * the ORB a subclass names, a browser-like client with cookies, the scenario, a short real httperf
 * run and the consistency audit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractEndToEndTest {
    DayTraderDeployment dt;
    private HttpClient browser = newBrowser();

    private static HttpClient newBrowser() {
        return HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
    }

    void start(OrbChoice orb) throws Exception {
        java.nio.file.Files.deleteIfExists(java.nio.file.Path.of("target", "e2e-" + orb.flag(), "operator.token")); // left by a killed run
        dt = DayTraderDeployment.builder().orb(orb).users(300).quotes(200).backendThreads(8).httpThreads(32)
                .workDir(java.nio.file.Path.of("target", "e2e-" + orb.flag())).startTimeout(Duration.ofSeconds(90)).start();
    }

    @AfterAll
    void stop() {
        if (dt != null) {
            java.nio.file.Path token = dt.operatorTokenFile();
            assertThat(token).exists();
            dt.close();
            assertThat(token).as("the token file the deployment made is gone with it").doesNotExist();
        }
    }

    private String csrf;

    HttpResponse<String> click(String page) throws Exception {
        HttpResponse<String> r = browser.send(HttpRequest.newBuilder(URI.create(dt.baseUrl() + page))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        remember(r);
        return r;
    }

    /** Submits a form as the browser does: POST, from this server's origin, with the page's CSRF token. */
    HttpResponse<String> submit(String page, String form) throws Exception {
        String body = csrf == null ? form : form + "&csrf=" + csrf;
        HttpResponse<String> r = browser.send(HttpRequest.newBuilder(URI.create(dt.baseUrl() + page))
                .timeout(Duration.ofSeconds(60)).header("Origin", "http://127.0.0.1:" + dt.webPort())
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
        remember(r);
        return r;
    }

    private void remember(HttpResponse<String> r) {
        Matcher m = Pattern.compile("name=\"csrf\" value=\"([0-9a-f]{32})\"").matcher(r.body());
        csrf = m.find() ? m.group(1) : null;
    }

    @Test
    void shouldServeEveryPageToASignedInBrowser() throws Exception {
        assertThat(click("home").body()).contains("Log in");
        assertThat(submit("login", "uid=uid:7&passwd=xxx").body()).contains("Welcome, uid:7", "Market summary");
        assertThat(click("quote?symbols=s:1,s:2").body()).contains("s:1", "s:2", "Buy");
        String bought = submit("buy", "symbol=s:3&quantity=5").body();
        assertThat(bought).contains("buy 5.0 x s:3", "closed");
        String portfolio = click("portfolio").body();
        Matcher sellForm = Pattern.compile("name=\"holdingID\" value=\"(\\d+)\"").matcher(portfolio);
        assertThat(sellForm.find()).as(portfolio).isTrue();
        assertThat(submit("sell", "holdingID=" + sellForm.group(1)).body()).contains("sell", "closed");
        assertThat(click("account").body()).contains("uid:7", "Orders", "Update profile");
        assertThat(submit("update", "fullname=Renamed%20Seven").body()).contains("Profile updated", "Renamed Seven");
        assertThat(submit("logout", "").body()).contains("Logged off");
        assertThat(click("portfolio").body()).contains("Log in to see your portfolio");
        assertThat(submit("register", "uid=e2e:" + System.nanoTime() + "&passwd=pw&fullname=E&money=500").body())
                .contains("Welcome");
    }

    @Test
    void shouldShowABusinessErrorWithoutFailingThePage() throws Exception {
        browser = newBrowser(); // a browser of its own: no session, no token
        csrf = null;
        submit("login", "uid=uid:8&passwd=xxx");
        HttpResponse<String> r = submit("buy", "symbol=nosuch&quantity=1");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("no quote nosuch");
    }

    @Test
    void shouldRunTheStandardScenarioThroughTheWebTier() throws Exception {
        HttpClient session = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        int ok = 0;
        for (int i = 0; i < 200; i++) {
            HttpResponse<String> r = session.send(HttpRequest.newBuilder(URI.create(dt.baseUrl() + "scenario"))
                    .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + dt.operatorToken())
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) {
                ok++;
            }
        }
        assertThat(ok).isEqualTo(200);
        String series = dt.timeSeriesCsv("web", 0);
        assertThat(series).startsWith(TimeSeriesCsv.HEADER).contains(",scenario,");
        assertThat(dt.audit().isConsistent()).isTrue();
    }

    @Test
    void shouldPassTheAuditAfterAShortHttperfRunOfThePapersLoad() throws Exception {
        HttperfResult r = Httperf.run(HttperfWorkload.builder("127.0.0.1", dt.webPort()).uri("/daytrader/scenario")
                .method("POST").wsess(4, 25, 0.1).rate(100).timeout(20).operatorToken(dt.operatorToken()).build(),
                Duration.ofSeconds(90));
        assertThat(r.commandLine()).doesNotContain(dt.operatorToken()).contains("Bearer ***");
        assertThat(r.isValid()).as(r.toString()).isTrue();
        assertThat(r.replies()).isEqualTo(100);
        assertThat(r.status2xx()).isEqualTo(100);
        assertThat(r.errorsTotal()).isZero();
        AuditReport audit = dt.audit();
        assertThat(audit.isConsistent()).as(audit.toString()).isTrue();
        assertThat(audit.getOrders()).isPositive();
    }

    @Test
    void shouldReplayTheSessionLogsPostsWithoutARefusalWhenHttperfRunsIt() throws Exception {
        java.nio.file.Path log = SessionLog.write(java.nio.file.Path.of("target", "e2e-sessions-" + dt.orb().flag() + ".txt"),
                org.irmi.bench.daytrader.internal.ScenarioMix.STANDARD, 4, 40, 300, 200, 5);
        long posts = java.nio.file.Files.readAllLines(log).stream().filter(l -> l.contains("method=POST")).count();

        HttperfResult r = Httperf.run(Httperf.sessionLog("127.0.0.1", dt.webPort(), 4, 0.01, log).timeout(20).build(),
                Duration.ofSeconds(120));

        assertThat(posts).isGreaterThan(20);
        assertThat(r.replies()).as(r.rawOutput()).isEqualTo(160);
        assertThat(r.status2xx()).as("every page, logins and CSRF-checked POSTs included: " + r.rawOutput()).isEqualTo(160);
        assertThat(r.errorsTotal()).isZero();
        assertThat(dt.audit().isConsistent()).isTrue();
    }

    @Test
    void shouldAllocateOnTheBackendWhenTheOperatorPostsThePoison() throws Exception {
        assertThat(click("poison?millis=300").statusCode()).isEqualTo(405);
        assertThat(submit("poison", "millis=300").statusCode()).as("a browser without the operator's token").isEqualTo(401);
        HttpResponse<String> r = dt.post("poison", "millis=300");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("allocated").contains("arrays of 10 KB");
        assertThat(dt.get("summary?tier=backend").body()).contains("poison n=1");
    }
}
