package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.irmi.sla.WindowConfig;

class LoadReporterTest {

    private final ManualClock clock = new ManualClock();
    private final LocalResourceMonitorTest.FakeProbe probe = new LocalResourceMonitorTest.FakeProbe();
    private final LocalResourceMonitor local = LocalResourceMonitor.of(WindowConfig.of(Duration.ofSeconds(10), 10), clock, probe);
    private final AtomicLong queue = new AtomicLong();

    @Test
    void shouldReuseTheReportWhenRefreshIsNotDue() {
        local.registerHandOffQueue("dispatch", queue::get);
        LoadReporter reporter = new LoadReporter(local, clock, 100_000_000L);
        queue.set(5);
        assertThat(reporter.report().queueLength()).isEqualTo(5);
        queue.set(9);
        clock.advanceMillis(99);
        assertThat(reporter.report().queueLength()).isEqualTo(5);
        clock.advanceMillis(1);
        assertThat(reporter.report().queueLength()).isEqualTo(9);
    }

    @Test
    void shouldCarryFlagsAtOnceWhenIsolationPointsSetThem() {
        LoadReporter reporter = new LoadReporter(local, clock, LoadReporter.DEFAULT_REFRESH_NANOS);
        assertThat(reporter.report().overloaded()).isFalse();
        reporter.setOverloaded(true);
        reporter.setPoisonEpisode(true);
        LoadReport decoded = LoadReportCodec.decode(reporter.encoded());
        assertThat(decoded.overloaded()).isTrue();
        assertThat(decoded.poisonEpisode()).isTrue();
        assertThat(decoded.heapPermille()).isEqualTo(600);
    }

    @Test
    void shouldChangeTheVersionAtEachRefreshAndAtOnceWhenAFlagChanges() {
        LoadReporter reporter = new LoadReporter(local, clock, 100_000_000L);
        long v1 = reporter.version();
        clock.advanceMillis(50);
        assertThat(reporter.version()).isEqualTo(v1);
        clock.advanceMillis(50);
        long v2 = reporter.version();
        assertThat(v2).isNotEqualTo(v1);
        reporter.setOverloaded(true); // same instant, new figures
        long v3 = reporter.version();
        assertThat(v3).isNotEqualTo(v2);
        assertThat(LoadReportCodec.decode(reporter.encoded()).overloaded()).isTrue();
        assertThat(reporter.version()).isEqualTo(v3);
    }

    @Test
    void shouldHandOutACopyWhenEncoding() {
        LoadReporter reporter = new LoadReporter(local, clock, LoadReporter.DEFAULT_REFRESH_NANOS);
        byte[] first = reporter.encoded();
        first[2] = 0x7F;
        assertThat(reporter.encoded()[2]).isNotEqualTo((byte) 0x7F);
    }
}
