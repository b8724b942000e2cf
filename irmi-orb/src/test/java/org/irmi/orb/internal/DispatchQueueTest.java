package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.Set;

import org.junit.jupiter.api.Test;

class DispatchQueueTest {

    @Test
    void shouldRefuseOffersBeyondCapacityWhenWorkersAreBusy() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        DispatchQueue<Integer> q = new DispatchQueue<>("t-busy", 1, 2, null, i -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(q.offer(1)).isTrue();
        q.signal();
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(q.offerFirst(2)).isTrue(); // items offered first count against the same capacity
        assertThat(q.offer(3)).isTrue();
        assertThat(q.offer(4)).isFalse();
        assertThat(q.offerFirst(5)).isFalse();
        assertThat(q.depth()).isEqualTo(2);
        release.countDown();
        q.shutdown(5000);
    }

    @Test
    void shouldDeliverEveryItemExactlyOnceWhenOfferedConcurrentlyWithSignals() throws InterruptedException {
        int n = 100_000;
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(n);
        DispatchQueue<Integer> q = new DispatchQueue<>("t-all", 2, n, null, i -> {
            if (seen.add(i)) {
                done.countDown();
            }
        });
        for (int i = 0; i < n; i++) {
            assertThat(q.offer(i)).isTrue();
            if (i % 7 == 0) {
                q.signal();
            }
        }
        q.signal();
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).hasSize(n);
        q.shutdown(5000);
    }

    @Test
    void shouldServeQueuedItemOnSecondWorkerWhenFirstIsHeldUpBelowHelperDepth() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch secondDone = new CountDownLatch(1);
        DispatchQueue<Integer> q = new DispatchQueue<>("t-held", 2, 100, null, i -> {
            if (i == 0) {
                firstStarted.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            } else {
                secondDone.countDown();
            }
        });
        assertThat(q.offer(0)).isTrue();
        q.signal();
        assertThat(firstStarted.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(q.offer(1)).isTrue(); // one item: below HELPER_WAKE_DEPTH, so only the selector's signal wakes a helper
        q.signal();
        assertThat(secondDone.await(5, TimeUnit.SECONDS)).isTrue();
        release.countDown();
        q.shutdown(5000);
    }

    @Test
    void shouldStartEveryWaitingItemFromOneSignalWhileFewerThanTheTargetRun() throws InterruptedException {
        // workers that run servants: each may block, so every waiting item must get a worker without
        // waiting for the selector's next signal
        int n = 4;
        CountDownLatch allStarted = new CountDownLatch(n);
        CountDownLatch release = new CountDownLatch(1);
        DispatchQueue<Integer> q = new DispatchQueue<>("t-servants", n, 100, () -> n,
                i -> startAndBlock(allStarted, release));
        awaitParked("t-servants", n);
        for (int i = 0; i < n; i++) {
            assertThat(q.offer(i)).isTrue();
        }
        q.signal(); // the only signal
        assertThat(allStarted.await(5, TimeUnit.SECONDS)).isTrue();
        release.countDown();
        q.shutdown(5000);
    }

    @Test
    void shouldWakeAnotherServantWorkerOnceTheRunningOnesAreHeldUp() throws InterruptedException {
        // target 1: one worker runs; when it blocks longer than HELD_UP_NANOS, the selector's next
        // signal wakes another, and so on, so blocked servants never strand the queue
        int n = 3;
        CountDownLatch allStarted = new CountDownLatch(n);
        CountDownLatch release = new CountDownLatch(1);
        DispatchQueue<Integer> q = new DispatchQueue<>("t-held-up", n, 100, () -> 1,
                i -> startAndBlock(allStarted, release));
        awaitParked("t-held-up", n);
        for (int i = 0; i < n; i++) {
            assertThat(q.offer(i)).isTrue();
        }
        assertThat(q.needsWatch()).isTrue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (allStarted.getCount() > 0 && System.nanoTime() < deadline) {
            q.signal(); // as the selector does every turn, at most 1 ms apart while needsWatch()
            Thread.sleep(1);
        }
        assertThat(allStarted.getCount()).isZero();
        assertThat(q.needsWatch()).isFalse();
        release.countDown();
        q.shutdown(5000);
    }

    @Test
    void shouldStartAnItemOfferedFirstAheadOfWaitingItemsWithoutWaitingForASignal() throws InterruptedException {
        // target 1: the worker running item 0 meets it, so a plain offer waits for the next signal
        // (or a worker to free); an item offered first wakes a parked worker at once and goes first
        java.util.List<Integer> started = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch aheadStarted = new CountDownLatch(1);
        CountDownLatch allDone = new CountDownLatch(3);
        DispatchQueue<Integer> q = new DispatchQueue<>("t-first", 2, 100, () -> 1, i -> {
            started.add(i);
            if (i == 0) {
                startAndBlock(firstStarted, release);
            } else if (i == 2) {
                aheadStarted.countDown();
            }
            allDone.countDown();
        });
        awaitParked("t-first", 2);
        assertThat(q.offer(0)).isTrue();
        q.signal();
        assertThat(firstStarted.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(q.offer(1)).isTrue(); // no signal: waits
        Thread.sleep(50); // the point: nothing starts it without a signal, however long it waits
        assertThat(started).containsExactly(0);

        assertThat(q.offerFirst(2)).isTrue(); // no signal either
        assertThat(aheadStarted.await(5, TimeUnit.SECONDS)).isTrue();
        release.countDown();
        assertThat(allDone.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(started).containsExactly(0, 2, 1);
        q.shutdown(5000);
    }

    /** Waits until the {@code count} workers of the queue whose threads are named {@code prefix-i} are parked. */
    private static void awaitParked(String prefix, int count) {
        await("workers of " + prefix + " parked").atMost(Duration.ofSeconds(5)).until(() -> Thread.getAllStackTraces().keySet()
                .stream().filter(t -> t.getName().startsWith(prefix + "-") && t.getState() == Thread.State.WAITING)
                .count() == count);
    }

    /** A servant that blocks: counts itself started, then waits for the release. */
    private static void startAndBlock(CountDownLatch started, CountDownLatch release) {
        started.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
