package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The in-flight limit from Little's law: exact arithmetic on sample sums. */
class CoreLimitTest {

    private static final long MICRO = 1_000;

    @Test
    void shouldStartAtTheConfiguredMaximum() {
        assertThat(new CoreLimit(2, 32).limit()).isEqualTo(32);
    }

    @Test
    void shouldLiftTheLimitToTheMaximumWhileOneConnectionAloneCallsAndRestoreItAtOnce() {
        CoreLimit l = new CoreLimit(2, 32);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16); // computing: 2 needed + 2 ready
        assertThat(l.limit()).isEqualTo(4);

        l.onAlone(true);
        assertThat(l.limit()).isEqualTo(32);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16);
        assertThat(l.limit()).as("windows still computed while lifted").isEqualTo(32);

        l.onAlone(false);
        assertThat(l.limit()).isEqualTo(4);
    }

    @Test
    void shouldAllowTwiceTheCoresWhenRequestsOnlyUseTheCpu() {
        CoreLimit l = new CoreLimit(2, 32);
        // 16 requests, 20 us on a core each, active 20 us each: needed = 2 * 1 = 2, + 2 ready to start
        assertThat(l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16)).isTrue();
        assertThat(l.limit()).isEqualTo(4);
    }

    @Test
    void shouldLeaveTheTimeWaitingForACoreOutOfTheLimit() {
        CoreLimit l = new CoreLimit(2, 32);
        // the caller passes active = end - start - time waiting for a core: 30 us active per 20 us of CPU
        // needed = 2 * 1.5 = 3, + 2
        l.onWindow(16 * 30 * MICRO, 16 * 20 * MICRO, 16);
        assertThat(l.limit()).isEqualTo(5);
    }

    @Test
    void shouldRiseToTheMaximumWhenRequestsMostlyBlock() {
        CoreLimit l = new CoreLimit(2, 32);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16);
        // a 10 ms database call for 20 us of CPU: needed = 2 * 500 = 1000, capped at 32
        l.onWindow(16 * 10_000 * MICRO, 16 * 20 * MICRO, 16);
        assertThat(l.limit()).isEqualTo(32);
    }

    @Test
    void shouldSizeAMixOfCpuBoundAndBlockingRequestsByTheirSums() {
        CoreLimit l = new CoreLimit(4, 100);
        // 12 requests of 50 us CPU only, 4 of 50 us CPU + 950 us blocked: active 12*50 + 4*1000 = 4600 us,
        // CPU 16*50 = 800 us; needed = 4 * 5.75 = 23, + 4
        l.onWindow(4600 * MICRO, 800 * MICRO, 16);
        assertThat(l.limit()).isEqualTo(27);
    }

    @Test
    void shouldWithholdTheRequestsReadyToStartWhileLightRequestsArrive() {
        CoreLimit l = new CoreLimit(2, 32);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16);
        assertThat(l.limit()).isEqualTo(4);
        // a closed-loop client's request arrived in the last window: only what keeps the cores busy
        l.onLightRequests(1, 1);
        assertThat(l.limit()).isEqualTo(2);
        assertThat(l.ready()).isZero();
        l.onWindow(16 * 30 * MICRO, 16 * 20 * MICRO, 16); // needed = 3, nothing ready beyond
        assertThat(l.limit()).isEqualTo(3);
        // a window without one: the pipelining connections get their surplus back
        l.onLightRequests(0, 0);
        assertThat(l.limit()).isEqualTo(5);
    }

    @Test
    void shouldLeaveTheMaximumAloneWhenLightRequestsArriveBeforeAnyWindow() {
        CoreLimit l = new CoreLimit(2, 32);
        l.onLightRequests(5, 5);
        assertThat(l.limit()).isEqualTo(32);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16);
        assertThat(l.limit()).isEqualTo(2);
        l.onStalled();
        l.onLightRequests(5, 5);
        assertThat(l.limit()).isEqualTo(32);
    }

    @Test
    void shouldKeepTheLimitWhenAWindowHasTooFewSamples() {
        CoreLimit l = new CoreLimit(2, 32);
        assertThat(l.onWindow(15 * 20 * MICRO, 15 * 20 * MICRO, CoreLimit.MIN_SAMPLES - 1)).isFalse();
        assertThat(l.limit()).isEqualTo(32);
    }

    @Test
    void shouldNeverGoBelowTheCoresNorAboveTheMaximum() {
        CoreLimit small = new CoreLimit(8, 3);
        small.onWindow(16 * MICRO, 16 * MICRO, 16); // needed 8 + 8, max 3
        assertThat(small.limit()).isEqualTo(3);
        CoreLimit l = new CoreLimit(2, 32);
        l.onWindow(0, 16 * MICRO, 16); // active below CPU (clock granularity): counted as CPU-bound
        assertThat(l.limit()).isEqualTo(4);
    }

    @Test
    void shouldUseTheMaximumWhenNoCpuTimeWasSeen() {
        CoreLimit l = new CoreLimit(2, 32);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16);
        l.onWindow(16 * 20 * MICRO, 0, 16);
        assertThat(l.limit()).isEqualTo(32);
    }

    @Test
    void shouldUseTheMaximumWhenRequestsWaitedAndNoneEnded() {
        CoreLimit l = new CoreLimit(2, 32);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16);
        assertThat(l.limit()).isEqualTo(4);
        l.onStalled(); // e.g. four servants waiting for a request that waits for a slot
        assertThat(l.limit()).isEqualTo(32);
    }

    @Test
    void shouldKeepTheReservedCoresForLightRequestsWhileTheyArrive() {
        CoreLimit l = new CoreLimit(2, 32, 1);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16); // CPU-bound: needed = 2, + 2 ready
        assertThat(l.limit()).isEqualTo(4); // nobody to keep a core for yet
        l.onLightRequests(3, 3);
        assertThat(l.limit()).isEqualTo(1); // needed 2 on 2 cores, one kept: 1
        l.onWindow(16 * 10_000 * MICRO, 16 * 20 * MICRO, 16); // blocking: needed 1000, half of it
        assertThat(l.limit()).isEqualTo(32);
        l.onWindow(16 * 30 * MICRO, 16 * 20 * MICRO, 16); // needed 3: ceil(3 * 1 / 2) = 2
        assertThat(l.limit()).isEqualTo(2);
        l.onLightRequests(0, 0); // a window without light requests: every core, and the ones ready, are theirs again
        assertThat(l.limit()).isEqualTo(5);
    }

    @Test
    void shouldKeepNoCoreForLightRequestsOfConnectionsThatPipeline() {
        CoreLimit l = new CoreLimit(2, 32, 1);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16); // CPU-bound: needed = 2, + 2 ready
        // light requests, none from a closed-loop connection while others' requests waited (a multiplexing
        // client whose connection drained now and then): the surplus is withheld, no core is kept
        l.onLightRequests(7, 0);
        assertThat(l.limit()).isEqualTo(2);
        l.onLightRequests(7, 1);
        assertThat(l.limit()).isEqualTo(1);
        l.onLightRequests(7, 0);
        assertThat(l.limit()).isEqualTo(2);
    }

    @Test
    void shouldScaleTheReserveWithTheCores() {
        CoreLimit l = new CoreLimit(8, 64, 2);
        l.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16); // needed 8
        l.onLightRequests(1, 1);
        assertThat(l.limit()).isEqualTo(6); // 8 * 6 / 8
        l.onWindow(16 * 25 * MICRO, 16 * 20 * MICRO, 16); // needed = ceil(8 * 1.25) = 10: ceil(10 * 6 / 8) = 8
        assertThat(l.limit()).isEqualTo(8);
    }

    @Test
    void shouldNeverReserveEveryCore() {
        CoreLimit one = new CoreLimit(1, 32, 1);
        one.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16);
        one.onLightRequests(1, 1);
        assertThat(one.limit()).isEqualTo(1); // one core: nothing can be kept, the requests still run
        CoreLimit two = new CoreLimit(2, 32, 5);
        two.onWindow(16 * 20 * MICRO, 16 * 20 * MICRO, 16);
        two.onLightRequests(1, 1);
        assertThat(two.limit()).isEqualTo(1); // at most cores - 1 kept
        assertThatThrownBy(() -> new CoreLimit(2, 4, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserveCores must be >= 0 but is -1");
    }

    @Test
    void shouldRefuseNoCores() {
        assertThatThrownBy(() -> new CoreLimit(0, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cores must be >= 1 but is 0");
    }

    @Test
    void shouldCarryTooFewSamplesIntoTheNextWindow() {
        CoreLimit l = new CoreLimit(2, 32);
        CoreSamples s = new CoreSamples();
        for (int i = 0; i < CoreLimit.MIN_SAMPLES - 1; i++) {
            s.record(20 * MICRO, 20 * MICRO);
        }
        s.drainInto(l);
        assertThat(l.limit()).isEqualTo(32);
        s.record(20 * MICRO, 20 * MICRO);
        s.drainInto(l);
        assertThat(l.limit()).isEqualTo(4);
        // used: the next window starts empty
        for (int i = 0; i < CoreLimit.MIN_SAMPLES; i++) {
            s.record(10_000 * MICRO, 20 * MICRO);
        }
        s.drainInto(l);
        assertThat(l.limit()).isEqualTo(32);
    }
}
