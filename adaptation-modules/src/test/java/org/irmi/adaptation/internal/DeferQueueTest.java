package org.irmi.adaptation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.sla.DeferConfig.WhenFull;
import org.junit.jupiter.api.Test;

class DeferQueueTest {
    @Test
    void shouldReleaseEveryParkedCallWhenThePointStopsFlagging() {
        DeferQueue q = new DeferQueue(10, 3, WhenFull.REJECT);
        DeferQueue.Ticket a = q.offer();
        DeferQueue.Ticket b = q.offer();
        assertThat(q.onTick(false)).containsExactly(a, b);
        assertThat(a.release().join()).isEqualTo(Decision.proceed());
        assertThat(q.size()).isZero();
        assertThat(q.released()).isEqualTo(2);
    }

    @Test
    void shouldRejectAfterMaxRetriesWhileThePointKeepsFlagging() {
        DeferQueue q = new DeferQueue(10, 2, WhenFull.REJECT);
        DeferQueue.Ticket a = q.offer();
        assertThat(q.onTick(true)).isEmpty();
        assertThat(q.onTick(true)).isEmpty();
        assertThat(q.onTick(true)).containsExactly(a);
        Decision.Reject r = (Decision.Reject) a.release().join();
        assertThat(r.minor()).isEqualTo(MinorCodes.DEFER_TIMEOUT);
        assertThat(q.rejectedRetries()).isEqualTo(1);
    }

    @Test
    void shouldRefuseANewCallWhenFullAndRejecting() {
        DeferQueue q = new DeferQueue(1, 3, WhenFull.REJECT);
        assertThat(q.offer()).isNotNull();
        assertThat(q.offer()).isNull();
        assertThat(q.rejectedFull()).isEqualTo(1);
        assertThat(q.size()).isEqualTo(1);
    }

    @Test
    void shouldRejectTheOldestWhenFullAndDroppingOldest() {
        DeferQueue q = new DeferQueue(1, 3, WhenFull.DROP_OLDEST);
        DeferQueue.Ticket old = q.offer();
        DeferQueue.Ticket young = q.offer();
        assertThat(young).isNotNull();
        assertThat(((Decision.Reject) old.release().join()).minor())
                .isEqualTo(MinorCodes.DEFER_QUEUE_FULL);
        assertThat(q.size()).isEqualTo(1);
    }

    @Test
    void shouldForgetACancelledTicket() {
        DeferQueue q = new DeferQueue(2, 3, WhenFull.REJECT);
        DeferQueue.Ticket t = q.offer();
        assertThat(q.cancel(t)).isTrue();
        assertThat(q.size()).isZero();
        assertThat(q.onTick(false)).isEmpty();
    }
}
