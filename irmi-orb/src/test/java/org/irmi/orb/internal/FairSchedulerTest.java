package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Start-time fair queueing across connections: exact orders, worked out by hand from the tags. */
class FairSchedulerTest {

    private final FairScheduler<String> scheduler = new FairScheduler<>();

    private static FairScheduler.Flow<String> flow() {
        return new FairScheduler.Flow<>(10);
    }

    private List<String> drain() {
        List<String> out = new ArrayList<>();
        for (String s = scheduler.poll(); s != null; s = scheduler.poll()) {
            out.add(s);
        }
        return out;
    }

    private void offer(FairScheduler.Flow<String> f, String prefix, int n, long cost) {
        for (int i = 1; i <= n; i++) {
            scheduler.offer(f, prefix + i, cost);
        }
    }

    @Test
    void shouldDispatchAnIdleConnectionsRequestBehindAtMostOneOfABackloggedConnections() {
        FairScheduler.Flow<String> flood = flow();
        FairScheduler.Flow<String> good = flow();
        offer(flood, "f", 4, 10);
        scheduler.offer(good, "g1", 10);
        // f1 and g1 both start at v = 0 (f1 came first); f2 starts at 10, f3 at 20, f4 at 30
        assertThat(drain()).containsExactly("f1", "g1", "f2", "f3", "f4");
    }

    @Test
    void shouldDispatchInFifoOrderWhenThereIsOneConnection() {
        FairScheduler.Flow<String> only = flow();
        offer(only, "a", 5, 7);
        assertThat(drain()).containsExactly("a1", "a2", "a3", "a4", "a5");
    }

    @Test
    void shouldShareSlotsByCostNotByCountBetweenBackloggedConnections() {
        FairScheduler.Flow<String> heavy = flow();
        FairScheduler.Flow<String> light = flow();
        offer(heavy, "H", 3, 30);
        offer(light, "l", 9, 10);
        // heavy starts at 0, 30, 60; light at 0, 10, ..., 80; ties in arrival order (heavy's came first)
        assertThat(drain()).containsExactly("H1", "l1", "l2", "l3", "H2", "l4", "l5", "l6", "H3", "l7", "l8", "l9");
    }

    @Test
    void shouldChargeAConnectionWhatItsRequestReallyCostWhenItEnds() {
        FairScheduler.Flow<String> a = flow();
        FairScheduler.Flow<String> b = flow();
        offer(b, "b", 5, 10);
        scheduler.offer(a, "a1", 10);
        assertThat(scheduler.poll()).isEqualTo("b1");
        assertThat(scheduler.poll()).isEqualTo("a1");
        a.ended(10, 100); // a1 was estimated at 10 and took 100: a's finish tag moves from 10 to 100
        assertThat(a.finishTag()).isEqualTo(100);
        scheduler.offer(a, "a2", 10);
        // without the charge a2 would start at 10, right after b2; with it, at 100: after b5 (40)
        assertThat(drain()).containsExactly("b2", "b3", "b4", "b5", "a2");
    }

    @Test
    void shouldGiveAConnectionNoCreditForTheTimeItWasIdle() {
        FairScheduler.Flow<String> busy = flow();
        FairScheduler.Flow<String> returning = flow();
        offer(busy, "b", 10, 10);
        for (int i = 0; i < 5; i++) {
            scheduler.poll(); // b1..b5: v = 40, busy's next request starts at 50
        }
        offer(returning, "r", 3, 10);
        // r1 starts at v = 40, not at 0: it goes first, then the two alternate
        assertThat(drain()).containsExactly("r1", "b6", "r2", "b7", "r3", "b8", "b9", "b10");
    }

    @Test
    void shouldMoveTheCostEstimateAnEighthOfTheWayTowardWhatARequestCost() {
        FairScheduler.Flow<String> f = new FairScheduler.Flow<>(800);
        f.ended(800, 1600);
        assertThat(f.costEstimate()).isEqualTo(900);
        f.ended(900, 100);
        assertThat(f.costEstimate()).isEqualTo(800);
    }

    @Test
    void shouldReturnARemovedConnectionsWaitingRequestsAndNeverDispatchThem() {
        FairScheduler.Flow<String> gone = flow();
        FairScheduler.Flow<String> stays = flow();
        offer(gone, "x", 3, 10);
        offer(stays, "s", 2, 10);
        assertThat(scheduler.size()).isEqualTo(5);
        assertThat(scheduler.remove(gone)).containsExactly("x1", "x2", "x3");
        assertThat(scheduler.size()).isEqualTo(2);
        assertThat(gone.waiting()).isZero();
        assertThat(drain()).containsExactly("s1", "s2");
        assertThat(scheduler.size()).isZero();
    }

    @Test
    void shouldDispatchEveryOfferedRequestExactlyOnceWhateverTheCosts() {
        List<FairScheduler.Flow<String>> flows = new ArrayList<>();
        List<String> offered = new ArrayList<>();
        for (int f = 0; f < 7; f++) {
            flows.add(flow());
        }
        for (int i = 0; i < 500; i++) {
            int f = (i * 31) % 7;
            String item = f + ":" + i;
            offered.add(item);
            scheduler.offer(flows.get(f), item, (i * 17L) % 97);
            if (i % 3 == 0) {
                flows.get((i * 13) % 7).charge(i % 2 == 0 ? 50 : -20);
            }
        }
        List<String> out = drain();
        assertThat(out).containsExactlyInAnyOrderElementsOf(offered);
        assertThat(scheduler.size()).isZero();
        // and each connection's requests in the order it sent them
        for (int f = 0; f < 7; f++) {
            String prefix = f + ":";
            List<String> mine = out.stream().filter(s -> s.startsWith(prefix)).toList();
            List<String> sent = offered.stream().filter(s -> s.startsWith(prefix)).toList();
            assertThat(mine).containsExactlyElementsOf(sent);
        }
    }

    @Test
    void shouldKeepVirtualTimeFromGoingBackwards() {
        FairScheduler.Flow<String> a = flow();
        FairScheduler.Flow<String> b = flow();
        offer(a, "a", 3, 25);
        offer(b, "b", 3, 5);
        long last = -1;
        while (scheduler.poll() != null) {
            assertThat(scheduler.virtualTime()).isGreaterThanOrEqualTo(last);
            last = scheduler.virtualTime();
        }
        assertThat(last).isEqualTo(50); // a3 starts at 50, the last start tag
    }

    @Test
    void shouldTakeOutExpiredRequestsAndDispatchTheRestInFairOrder() {
        FairScheduler.Flow<String> a = flow();
        FairScheduler.Flow<String> b = flow();
        offer(a, "a", 3, 10);
        offer(b, "b", 2, 10);
        List<String> expired = scheduler.removeIf(s -> s.equals("a1") || s.equals("b2"));
        assertThat(expired).containsExactlyInAnyOrder("a1", "b2");
        assertThat(scheduler.size()).isEqualTo(3);
        // a2 is a's head now, tagged as a head is: start 0 (a was charged nothing for a1), before b1 by arrival
        assertThat(drain()).containsExactly("a2", "b1", "a3");
        assertThat(scheduler.removeIf(s -> true)).isEmpty();
    }

    @Test
    void shouldRefuseANegativeCost() {
        assertThatThrownBy(() -> scheduler.offer(flow(), "x", -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cost must be >= 0 but is -1");
    }
}
