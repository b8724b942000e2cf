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
    private final HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager())
            .connectTimeout(Duration.ofSeconds(5)).build();

    void start(OrbChoice orb) throws Exception {
        dt = DayTraderDeployment.builder().orb(orb).users(300).quotes(200).backendThreads(8).httpThreads(32)
                .workDir(java.nio.file.Path.of("target", "e2e-" + orb.flag())).startTimeout(Duration.ofSeconds(90)).start();
    }

    @AfterAll
    void stop() {
        if (dt != null) {
            dt.close();
        }
    }

    HttpResponse<String> click(String page) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create(dt.baseUrl() + page)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldServeEveryPageToASignedInBrowser() throws Exception {
        assertThat(click("home").body()).contains("Log in");
        assertThat(click("login?uid=uid:7&passwd=xxx").body()).contains("Welcome, uid:7", "Market summary");
        assertThat(click("quote?symbols=s:1,s:2").body()).contains("s:1", "s:2", "Buy");
        String bought = click("buy?symbol=s:3&quantity=5").body();
        assertThat(bought).contains("buy 5.0 x s:3", "closed");
        String portfolio = click("portfolio").body();
        Matcher sellLink = Pattern.compile("sell\\?holdingID=(\\d+)").matcher(portfolio);
        assertThat(sellLink.find()).as(portfolio).isTrue();
        assertThat(click("sell?holdingID=" + sellLink.group(1)).body()).contains("sell", "closed");
        assertThat(click("account").body()).contains("uid:7", "Orders", "Update profile");
        assertThat(click("update?fullname=Renamed%20Seven").body()).contains("Profile updated", "Renamed Seven");
        assertThat(click("logout").body()).contains("Logged off");
        assertThat(click("portfolio").body()).contains("Log in to see your portfolio");
        assertThat(click("register?uid=e2e:" + System.nanoTime() + "&passwd=pw&fullname=E&money=500").body())
                .contains("Welcome");
    }

    @Test
    void shouldShowABusinessErrorWithoutFailingThePage() throws Exception {
        click("login?uid=uid:8&passwd=xxx");
        HttpResponse<String> r = click("buy?symbol=nosuch&quantity=1");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("no quote nosuch");
    }

    @Test
    void shouldRunTheStandardScenarioThroughTheWebTier() throws Exception {
        HttpClient session = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        int ok = 0;
        for (int i = 0; i < 200; i++) {
            HttpResponse<String> r = session.send(HttpRequest.newBuilder(URI.create(dt.baseUrl() + "scenario"))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
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
        HttperfResult r = Httperf.run(Httperf.Workload.builder("127.0.0.1", dt.webPort()).uri("/daytrader/scenario")
                .wsess(4, 25, 0.1).rate(100).timeout(20).build(), Duration.ofSeconds(90));
        assertThat(r.isValid()).as(r.toString()).isTrue();
        assertThat(r.replies()).isEqualTo(100);
        assertThat(r.status2xx()).isEqualTo(100);
        assertThat(r.errorsTotal()).isZero();
        AuditReport audit = dt.audit();
        assertThat(audit.isConsistent()).as(audit.toString()).isTrue();
        assertThat(audit.getOrders()).isPositive();
    }

    @Test
    void shouldAllocateOnTheBackendWhenThePoisonUrlIsCalled() throws Exception {
        HttpResponse<String> r = click("poison?millis=300");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("allocated").contains("arrays of 10 KB");
        assertThat(dt.get("summary?tier=backend").body()).contains("poison n=1");
    }
}
