package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.irmi.isolation.PoisonMessagePoint;
import org.irmi.orb.isolation.Dashboard;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless browser (Debian's {@code chromium}, driven through
 * {@code chromium-driver} by Selenium) while a real poison episode happens: an I-RMI server with
 * {@code sla/dashboard.yaml}, four clients of cheap calls, then one call of an operation that
 * allocates in a tight loop for 4 s. The page must show the open episode, then the suspect the
 * episode named, the filter, and the refusal of the next poison call as a decision with its
 * evidence, each within a bounded time, by polling alone (nobody reloads the page).
 *
 * <p>Screenshots go to {@code target/dashboard/}: {@code poison-episode.png} while the episode is
 * open (when the page showed it), {@code poison-caught.png} once everything is shown. The
 * documentation's screenshot is a copy of the latter.
 *
 * <p>Skipped, saying so, only where chromium or chromium-driver is not installed
 * ({@code scripts/prereqs.sh} installs both).
 */
class DashboardBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = Path.of("target", "dashboard");

    private ORB server;
    private ORB client;
    private WebDriver browser;
    private Path profile;
    private final AtomicBoolean loadRunning = new AtomicBoolean(true);
    private final List<ORB> loadOrbs = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        loadRunning.set(false);
        if (browser != null) {
            browser.quit();
        }
        Nodes.destroy(loadOrbs.toArray(new ORB[0]));
        Nodes.destroy(client, server);
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private WebDriver startBrowser() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "DashboardBrowserTest skipped: Debian's chromium and chromium-driver are not installed ("
                        + CHROMIUM + ", " + CHROMEDRIVER + "). scripts/prereqs.sh installs them; by hand: "
                        + "sudo apt-get install -y chromium chromium-driver");
        Files.createDirectories(SHOTS);
        profile = Files.createTempDirectory("irmi-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,2600", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .withLogFile(SHOTS.resolve("chromedriver.log").toFile()).build();
        return new ChromeDriver(service, options);
    }

    private void screenshot(String name) throws Exception {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }

    private String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    @Test
    void shouldShowTheSuspectTheDecisionAndItsEvidenceWhenAPoisonEpisodeIsCaught() throws Exception {
        server = Nodes.irmi(Nodes.sla("dashboard.yaml"), Dashboard.PORT_PROPERTY, "0");
        String url = Nodes.isolation(server).dashboardUrl().orElseThrow();
        TradeImpl impl = new TradeImpl("backend");
        String ior = Nodes.export(server, impl);
        PoisonMessagePoint point = Nodes.runtime(server).poison().orElseThrow();
        client = Nodes.irmi();
        Trade trade = Nodes.lookup(client, ior);
        AtomicLong errors = new AtomicLong();
        for (int i = 0; i < 4; i++) {
            ORB own = Nodes.irmi();
            loadOrbs.add(own);
            Trade mine = Nodes.lookup(own, ior);
            Thread t = new Thread(() -> {
                while (loadRunning.get()) {
                    try {
                        mine.quote("IBM");
                        mine.buy("IBM", 3);
                        Thread.sleep(1);
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                }
            }, "load-" + i);
            t.setDaemon(true);
            t.start();
        }
        browser = startBrowser();
        browser.get(url);
        WebDriverWait shortWait = new WebDriverWait(browser, Duration.ofSeconds(10), Duration.ofMillis(100));
        shortWait.until(b -> text("refresh").startsWith("updated"));
        assertThat(text("service")).isEqualTo("backend");
        assertThat(text("sla-file")).isEqualTo("dashboard.yaml");
        // steady state: the edge detector learns its baseline, the page draws it
        await("the edge detector's baseline").atMost(Duration.ofSeconds(60))
                .until(Nodes.isolation(server)::edgeBaselineReady);
        shortWait.until(b -> browser.findElement(By.id("poison-resources")).getText().contains("baseline"));

        // the first poison call runs on its own thread: nothing knows it yet
        Thread poisonCall = new Thread(() -> {
            try {
                trade.poison(4_000);
            } catch (java.rmi.RemoteException e) {
                errors.incrementAndGet();
            }
        }, "poison-call");
        long poisonStart = System.nanoTime();
        poisonCall.start();
        boolean sawOpenEpisode = false;
        long episodeDeadline = poisonStart + 12_000_000_000L;
        while (System.nanoTime() < episodeDeadline && !sawOpenEpisode) {
            // an open episode has named nothing yet: it is watched, not an alarm
            if (text("episode-badge").startsWith("watching episode")) {
                assertThat(browser.findElement(By.id("episode-badge")).getAttribute("class")).contains("watch");
                sawOpenEpisode = true;
                screenshot("poison-episode.png");
            } else {
                Thread.sleep(200);
            }
        }
        poisonCall.join(20_000);

        // within 30 s of the poison call: the suspect it was named by, and the filter
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30), Duration.ofMillis(200));
        wait.until(b -> browser.findElement(By.id("poison-episodes")).getText().contains("poison"));
        double secondsToShowSuspect = (System.nanoTime() - poisonStart) / 1e9;
        WebElement episode = browser.findElements(By.cssSelector("#poison-episodes tbody tr")).stream()
                .filter(r -> r.getText().contains("poison")).findFirst().orElseThrow();
        List<WebElement> cells = episode.findElements(By.tagName("td"));
        assertThat(cells.get(5).getText()).as("named by cost").isEqualTo("poison");
        assertThat(cells.get(6).getText()).as("filtered").isEqualTo("poison");
        assertThat(cells.get(7).getText()).as("the episode's evidence")
                .contains("namedCostShare=", "namedCpuPerRequest=", "baselineCpuPerRequest=");
        wait.until(b -> browser.findElement(By.id("poison-filters")).getText().contains("poison"));
        assertThat(browser.findElement(By.cssSelector("#poison-filters tbody tr")).getText())
                .startsWith("poison filtered");
        assertThat(point.filtered()).containsExactly("poison");
        // a suspect named and filtered: the red badge
        wait.until(b -> text("episode-badge").startsWith("POISON FILTERED: poison"));
        assertThat(browser.findElement(By.id("episode-badge")).getAttribute("class")).contains("alert");

        // the next poison call is refused on the reader thread: a decision with its evidence
        Throwable refused = catchThrowable(() -> trade.poison(4_000));
        assertThat(refused).isNotNull();
        long refusedAt = System.nanoTime();
        new WebDriverWait(browser, Duration.ofSeconds(10), Duration.ofMillis(100)).until(b ->
                browser.findElement(By.id("decisions")).getText().contains("poison_message"));
        double secondsToShowDecision = (System.nanoTime() - refusedAt) / 1e9;
        screenshot("poison-caught.png");
        WebElement decision = browser.findElements(By.cssSelector("#decisions tbody tr")).stream()
                .filter(r -> r.getText().contains("poison_message")).findFirst().orElseThrow();
        List<WebElement> d = decision.findElements(By.tagName("td"));
        assertThat(d.get(1).getText()).isEqualTo("poison_message");
        assertThat(d.get(2).getText()).isEqualTo("reject");
        assertThat(d.get(4).getText()).as("stream").contains("poison");
        assertThat(d.get(5).getText()).contains("TRANSIENT", "POISON_FILTERED");
        assertThat(d.get(6).getText()).as("evidence").contains("timesFiltered=1", "coolDownNanos=");
        assertThat(text("decision-counts")).contains("poison_message reject 1");
        // the SLA side by side with what is measured, and the crosstalk point's connections
        assertThat(browser.findElement(By.id("objectives")).getText()).contains("quote", "≤ 50 ms");
        assertThat(browser.findElements(By.cssSelector("#connections tbody tr"))).as("the four load clients' connections")
                .hasSizeGreaterThanOrEqualTo(4);
        assertThat(browser.findElement(By.id("connections")).getText()).contains("8 KiB");
        assertThat(text("refresh")).startsWith("updated");
        assertThat(Files.size(SHOTS.resolve("poison-caught.png"))).isGreaterThan(10_000);
        System.out.printf("dashboard browser test: open episode shown %s, suspect shown %.1f s after the poison"
                        + " call, decision shown %.1f s after the refusal, load errors %d; screenshots in %s%n",
                sawOpenEpisode, secondsToShowSuspect, secondsToShowDecision, errors.get(), SHOTS.toAbsolutePath());
        assertThat(impl.poisons.get()).isEqualTo(1);
    }
}
