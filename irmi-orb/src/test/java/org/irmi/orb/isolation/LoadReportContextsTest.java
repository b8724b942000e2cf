package org.irmi.orb.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.irmi.isolation.RemoteLoad;
import org.irmi.monitors.LoadReport;
import org.irmi.monitors.LoadReportCodec;
import org.irmi.monitors.ManualClock;
import org.irmi.orb.ReplyContextListener;
import org.junit.jupiter.api.Test;

class LoadReportContextsTest {
    private final ManualClock clock = new ManualClock();
    private final List<RemoteLoad> received = new ArrayList<>();
    private final ReplyContextListener listener = LoadReportContexts.fromReplies(clock, received::add);

    @Test
    void shouldHandTheDecodedReportStampedWithItsArrivalWhenAReplyCarriesOne() {
        clock.advanceNanos(42);

        listener.onReplyContext(null, LoadReportCodec.encode(new LoadReport(500, 250, 3, 0, 120, true, false)));

        assertThat(listener.contextId()).isEqualTo(LoadReportCodec.SERVICE_CONTEXT_ID);
        assertThat(received).singleElement().satisfies(load -> {
            assertThat(load.cpu()).isEqualTo(0.5);
            assertThat(load.queueLength()).isEqualTo(3);
            assertThat(load.gcPerSecond()).isEqualTo(2.0);
            assertThat(load.overloaded()).isTrue();
            assertThat(load.receivedAtNanos()).isEqualTo(clock.nanoTime());
        });
    }

    @Test
    void shouldHandNothingWhenTheContextDoesNotDecode() {
        listener.onReplyContext(null, new byte[] {1, 2});

        assertThat(received).isEmpty();
    }
}
