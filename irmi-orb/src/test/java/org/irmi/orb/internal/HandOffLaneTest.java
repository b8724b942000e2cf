package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class HandOffLaneTest {

    /** What a dispatch worker does with a task: wait for its turn, hand it over (here: record it), leave. */
    private record Item(int seq, long ticket) {
    }

    @Test
    void shouldHandItemsOverInTicketOrderThroughSeveralWorkers() throws InterruptedException {
        // four workers that take items from one FIFO and would otherwise record them in whatever
        // order they get to it; a little work before the hand-off lets them overtake each other
        int n = 20_000;
        HandOffLane lane = new HandOffLane();
        List<Integer> handedOver = new ArrayList<>(n);
        CountDownLatch done = new CountDownLatch(n);
        DispatchQueue<Item> q = new DispatchQueue<>("t-lane", 4, n, null, item -> {
            long spin = (item.seq() * 31L) % 500;
            for (long i = 0; i < spin; i++) {
                Thread.onSpinWait();
            }
            try {
                assertThat(lane.awaitTurn(item.ticket())).isTrue();
                synchronized (handedOver) {
                    handedOver.add(item.seq());
                }
            } finally {
                lane.leave(item.ticket());
                done.countDown();
            }
        });
        for (int i = 0; i < n; i++) {
            assertThat(q.offer(new Item(i, lane.join()))).isTrue();
            if (i % 64 == 0) {
                q.signal();
            }
        }
        q.signal();
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        q.shutdown(5000);
        List<Integer> expected = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            expected.add(i);
        }
        assertThat(handedOver).containsExactlyElementsOf(expected);
    }

    @Test
    void shouldGoOnOutOfTurnWhenAnEarlierTicketNeverLeaves() {
        HandOffLane lane = new HandOffLane();
        long first = lane.join();
        long second = lane.join();
        long start = System.nanoTime();
        assertThat(lane.awaitTurn(second)).isFalse();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(HandOffLane.MAX_WAIT_NANOS);
        lane.leave(second);
        // the first leaving late does not move the lane backwards: the third goes at once
        lane.leave(first);
        assertThat(lane.awaitTurn(lane.join())).isTrue();
    }

    @Test
    void shouldTakeBackOnlyTheLastTicketGivenOut() {
        HandOffLane lane = new HandOffLane();
        long first = lane.join();
        long second = lane.join();
        assertThatThrownBy(() -> lane.unjoin(first)).isInstanceOf(IllegalStateException.class);
        lane.unjoin(second); // its hand-off queue was full
        lane.leave(first);
        long next = lane.join();
        assertThat(next).isEqualTo(second);
        assertThat(lane.awaitTurn(next)).isTrue();
    }
}
