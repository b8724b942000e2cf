package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.irmi.sla.WindowConfig;

class RemoteLoadStoreTest {

    private final ManualClock clock = new ManualClock();
    private final WindowConfig tenSeconds = WindowConfig.of(Duration.ofSeconds(10), 10);

    private static LoadReport cpu(int permille, int queue) {
        return new LoadReport(permille, 100, queue, 0, 0, false, false);
    }

    @Test
    void shouldAverageReportsOverTheWindowWhenAHostReportsRepeatedly() {
        RemoteLoadStore store = RemoteLoadStore.of(tenSeconds, clock);
        store.onReport("h1", cpu(200, 3));
        clock.advanceMillis(1_000);
        store.onReport("h1", cpu(600, 9));
        clock.advanceMillis(500);
        RemoteHostSnapshot s = store.snapshot("h1").orElseThrow();
        assertThat(s.meanCpuPermille()).isEqualTo(400.0);
        assertThat(s.maxQueueLength()).isEqualTo(9);
        assertThat(s.reportsInWindow()).isEqualTo(2);
        assertThat(s.latest()).isEqualTo(cpu(600, 9));
        assertThat(s.ageNanos()).isEqualTo(500_000_000L);
        assertThat(s.isFresh(1_000_000_000L)).isTrue();
    }

    @Test
    void shouldKnowNothingWhenAPeerWithoutIrmiSendsNoContext() {
        RemoteLoadStore store = RemoteLoadStore.of(tenSeconds, clock);
        assertThat(store.onServiceContext("omniorb-peer", null)).isFalse();
        assertThat(store.snapshot("omniorb-peer")).isEmpty();
        assertThat(store.hosts()).isEmpty();
        assertThat(store.malformedReports()).isZero();
    }

    @Test
    void shouldCountAndDropWhenContextIsMalformed() {
        RemoteLoadStore store = RemoteLoadStore.of(tenSeconds, clock);
        assertThat(store.onServiceContext("h", new byte[] {9, 9})).isFalse();
        assertThat(store.malformedReports()).isEqualTo(1);
        assertThat(store.onServiceContext("h", LoadReportCodec.encode(cpu(10, 0)))).isTrue();
        assertThat(store.snapshot("h")).isPresent();
    }

    @Test
    void shouldEvictTheStalestHostWhenFull() {
        assertThat(hostsKeptWhenCArrives(store -> store.onReport("a", cpu(1, 0)))).containsExactlyInAnyOrder("a", "c");
    }

    @Test
    void shouldKeepTheLatestReportWhenTheWindowHasPassed() {
        RemoteLoadStore store = RemoteLoadStore.of(tenSeconds, clock);
        store.onReport("h", cpu(500, 1));
        clock.advanceMillis(30_000);
        RemoteHostSnapshot s = store.snapshot("h").orElseThrow();
        assertThat(s.reportsInWindow()).isZero();
        assertThat(s.latest().cpuPermille()).isEqualTo(500);
        assertThat(s.isFresh(10_000_000_000L)).isFalse();
    }

    @Test
    void shouldSmoothRoundTripsWithWeightAQuarterWhenRepliesArrive() {
        RemoteLoadStore store = RemoteLoadStore.of(tenSeconds, clock);
        store.onRoundTrip("h", 100);
        assertThat(store.snapshot("h").orElseThrow().smoothedRttNanos()).isEqualTo(100.0);
        clock.advanceMillis(1_000);
        store.onRoundTrip("h", 500);
        RemoteHostSnapshot s = store.snapshot("h").orElseThrow();
        assertThat(s.smoothedRttNanos()).isEqualTo(200.0); // 100 + (500 - 100) / 4
        assertThat(s.rttAtNanos()).isEqualTo(clock.nanoTime());
    }

    @Test
    void shouldKnowARoundTripButNoReportWhenAPeerWithoutIrmiReplies() {
        RemoteLoadStore store = RemoteLoadStore.of(tenSeconds, clock);
        store.onRoundTrip("omniorb-peer", 1_000);
        RemoteHostSnapshot s = store.snapshot("omniorb-peer").orElseThrow();
        assertThat(s.latest()).isNull();
        assertThat(s.reportsInWindow()).isZero();
        assertThat(s.isFresh(Long.MAX_VALUE - 1)).isFalse();
    }

    @Test
    void shouldHaveNoRoundTripWhenOnlyReportsArrived() {
        RemoteLoadStore store = RemoteLoadStore.of(tenSeconds, clock);
        store.onReport("h", cpu(100, 0));
        assertThat(store.snapshot("h").orElseThrow().smoothedRttNanos()).isNaN();
    }

    @Test
    void shouldAgeAReportFromTheTimeTheCallerGaveWhenItTookTheArrivalTimeItself() {
        RemoteLoadStore store = RemoteLoadStore.of(tenSeconds, clock);
        long receivedAt = clock.nanoTime();
        clock.advanceMillis(300);
        store.onReport("h", cpu(100, 0), receivedAt);
        RemoteHostSnapshot s = store.snapshot("h").orElseThrow();
        assertThat(s.latestAtNanos()).isEqualTo(receivedAt);
        assertThat(s.ageNanos()).isEqualTo(300_000_000L);
    }

    @Test
    void shouldKeepTheHostHeardFromLatelyWhenItsOnlyNewsIsARoundTrip() {
        assertThat(hostsKeptWhenCArrives(store -> store.onRoundTrip("a", 5))).containsExactlyInAnyOrder("a", "c");
    }

    /**
     * A store of two hosts hears from a, then b, then a again ({@code hearFromAAgain}: a is now
     * fresher than b); then c reports.
     */
    private java.util.List<String> hostsKeptWhenCArrives(java.util.function.Consumer<RemoteLoadStore> hearFromAAgain) {
        RemoteLoadStore store = RemoteLoadStore.of(tenSeconds, clock, 2);
        store.onReport("a", cpu(1, 0));
        clock.advanceMillis(1);
        store.onReport("b", cpu(1, 0));
        clock.advanceMillis(1);
        hearFromAAgain.accept(store);
        clock.advanceMillis(1);
        store.onReport("c", cpu(1, 0));
        return store.hosts();
    }
}
