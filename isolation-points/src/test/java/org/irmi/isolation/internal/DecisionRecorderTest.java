package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.irmi.isolation.Decision;
import org.irmi.isolation.DecisionEvent;
import org.irmi.isolation.Evidence;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.PointKind;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.monitors.ManualClock;
import org.irmi.monitors.StreamKey;
import org.junit.jupiter.api.Test;

class DecisionRecorderTest {
    private final ManualClock clock = new ManualClock();
    private final DecisionRecorder recorder = new DecisionRecorder(clock::wallMillis);
    private static final StreamKey STREAM = new StreamKey("key", "poison", "10.0.0.1:4000");

    @Test
    void shouldPublishEveryEventWithItsEvidenceToListeners() {
        List<DecisionEvent> seen = new ArrayList<>();
        recorder.addListener(seen::add);
        Decision d = Decision.reject(SystemExceptionKind.TRANSIENT, MinorCodes.POISON_FILTERED, "p");
        for (int i = 0; i < 5; i++) {
            recorder.record(PointKind.POISON_MESSAGE, STREAM, "reject", d,
                    Evidence.builder().put("timesFiltered", 1).build());
        }
        assertThat(seen).hasSize(5);
        assertThat(seen.get(0).wallTimeMillis()).isEqualTo(clock.wallMillis());
        assertThat(seen.get(0).toLogLine()).isEqualTo("irmi.decision point=poison_message "
                + "action=reject module=reject stream=key/poison@10.0.0.1:4000 exception=TRANSIENT "
                + "minor=POISON_FILTERED reason=\"p\" evidence={timesFiltered=1}");
        assertThat(recorder.count(PointKind.POISON_MESSAGE, Decision.Action.REJECT)).isEqualTo(5);
    }

    @Test
    void shouldKeepCountingWhenAListenerFails() {
        recorder.addListener(e -> {
            throw new IllegalStateException("broken listener");
        });
        recorder.record(PointKind.SLOW_CLIENT, STREAM, "m", new Decision.ShortCircuit(null),
                Evidence.NONE);
        assertThat(recorder.count(PointKind.SLOW_CLIENT, Decision.Action.SHORT_CIRCUIT)).isEqualTo(1);
    }
}
