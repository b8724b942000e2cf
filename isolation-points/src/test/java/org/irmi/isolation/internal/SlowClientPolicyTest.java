package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.irmi.isolation.LocalLoad;
import org.irmi.isolation.RemoteLoad;
import org.irmi.sla.RemoteLoadThresholds;
import org.irmi.sla.SlowClientConfig;
import org.junit.jupiter.api.Test;

class SlowClientPolicyTest {
    private static final long S = 1_000_000_000L;
    /** How long a target host's report counts. */
    private static final long MAX_AGE = 5 * S;
    private final SlowClientConfig config = SlowClientConfig.custom()
            .queueGrowthPerSecond(10).maxQueueLength(100).queueLow(10)
            .heapPressurePercent(80).cpuPercent(90).gcPerSecond(5)
            .remoteLoad(new RemoteLoadThresholds(90, 85, 50, 10))
            .minHold(Duration.ofSeconds(2)).build();
    private static final LocalLoad CALM = new LocalLoad(0.1, 0.3, 0.5);
    private static final LocalLoad HEAP_FULL = new LocalLoad(0.1, 0.85, 0.5);

    private SlowClientPolicy.Inputs inputs(double q, double growth, LocalLoad local, RemoteLoad r) {
        return new SlowClientPolicy.Inputs(q, growth, 100, 100 - growth, Double.NaN, local, r);
    }

    @Test
    void shouldTriggerWhenQueueGrowsUnderLocalPressure() {
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, false, 0, 10 * S, inputs(20, 15, HEAP_FULL, null));
        assertThat(v.triggered()).isTrue();
        assertThat(v.reason()).isEqualTo("queue+pressure");
        assertThat(v.evidence().get("heapPressure")).isEqualTo(0.85);
        assertThat(v.evidence().get("growthPerSecond")).isEqualTo(15.0);
    }

    @Test
    void shouldNotTriggerWhenQueueGrowsWithoutPressure() {
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, false, 0, 10 * S, inputs(500, 50, CALM, null));
        assertThat(v.triggered()).isFalse();
    }

    @Test
    void shouldNotTriggerUnderPressureWhenQueueIsCalm() {
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, false, 0, 10 * S, inputs(5, 1, HEAP_FULL, null));
        assertThat(v.triggered()).isFalse();
    }

    @Test
    void shouldTriggerWhenTheQueueIsLongAndTheTargetHostIsBusy() {
        RemoteLoad busy = new RemoteLoad(0.95, 0.2, 3, 0, false, 9 * S);
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, false, 0, 10 * S, inputs(100, 0, CALM, busy));
        assertThat(v.triggered()).isTrue();
        assertThat(v.evidence().get("remoteCpu")).isEqualTo(0.95);
    }

    @Test
    void shouldTriggerOnPeerOverloadBeforeAnyQueueGrows() {
        RemoteLoad over = new RemoteLoad(0.2, 0.2, 0, 0, true, 9 * S);
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, false, 0, 10 * S, inputs(0, 0, CALM, over));
        assertThat(v.triggered()).isTrue();
        assertThat(v.reason()).isEqualTo("peer-overload");
    }

    @Test
    void shouldIgnoreRemoteReportWhenItIsOlderThanMaxAge() {
        RemoteLoad old = new RemoteLoad(0.2, 0.2, 0, 0, true, 4 * S);
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, false, 0, 10 * S, inputs(0, 0, CALM, old));
        assertThat(v.triggered()).isFalse();
        assertThat(v.evidence().values()).doesNotContainKey("remoteOverloaded");
    }

    @Test
    void shouldIgnorePeerOverloadWhenReactingIsOff() {
        SlowClientConfig off = SlowClientConfig.custom().reactToPeerOverload(false).build();
        RemoteLoad over = new RemoteLoad(0.2, 0.2, 0, 0, true, 9 * S);
        var v = SlowClientPolicy.evaluate(off, MAX_AGE, false, 0, 10 * S, inputs(0, 0, CALM, over));
        assertThat(v.triggered()).isFalse();
    }

    @Test
    void shouldHoldTriggeredPairDuringMinHoldWhenConditionClears() {
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, true, 9 * S, 10 * S, inputs(0, -5, CALM, null));
        assertThat(v.triggered()).isTrue();
        assertThat(v.reason()).isEqualTo("hold");
    }

    @Test
    void shouldStayTriggeredWhileDrainingUnderPressure() {
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, true, 0, 10 * S, inputs(50, -20, HEAP_FULL, null));
        assertThat(v.triggered()).isTrue();
        assertThat(v.reason()).isEqualTo("draining");
    }

    @Test
    void shouldReleaseWhenQueueDrainedToLowAfterHold() {
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, true, 0, 10 * S, inputs(10, -20, HEAP_FULL, null));
        assertThat(v.triggered()).isFalse();
        assertThat(v.reason()).isEqualTo("clear");
    }

    @Test
    void shouldUseApplicationGaugeInsteadOfEstimateWhenRegistered() {
        var in = new SlowClientPolicy.Inputs(0, 0, 10, 10, 150, HEAP_FULL, null);
        var v = SlowClientPolicy.evaluate(config, MAX_AGE, false, 0, 10 * S, in);
        assertThat(v.triggered()).isTrue();
        assertThat(v.evidence().get("applicationQueue")).isEqualTo(150.0);
    }

    @Test
    void shouldCountASlowRoundTripAsRemotePressureWhenConfigured() {
        SlowClientConfig rtt = SlowClientConfig.custom().queueGrowthPerSecond(10).maxQueueLength(100)
                .remoteLoad(new RemoteLoadThresholds(90, 85, 1000, 10, Duration.ofMillis(20))).build();
        var slow = new SlowClientPolicy.Inputs(30, 40, 200, 160, Double.NaN, CALM, null, 50e6);
        var fast = new SlowClientPolicy.Inputs(30, 40, 200, 160, Double.NaN, CALM, null, 0.5e6);
        assertThat(SlowClientPolicy.evaluate(rtt, MAX_AGE, false, 0, 10 * S, slow).triggered()).isTrue();
        assertThat(SlowClientPolicy.evaluate(rtt, MAX_AGE, false, 0, 10 * S, slow).evidence()
                .get("remoteRttNanos")).isEqualTo(50e6);
        assertThat(SlowClientPolicy.evaluate(rtt, MAX_AGE, false, 0, 10 * S, fast).triggered()).isFalse();
        assertThat(SlowClientPolicy.evaluate(config, MAX_AGE, false, 0, 10 * S, slow).triggered()).isFalse();
    }
}
