package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.rmi.RemoteException;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.PoisonMessagePoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;
import org.omg.CORBA.TRANSIENT;

/**
 * Healing false positives, through real I-RMI ORBs: after its cool-down a filtered request type is
 * let through on probation a trickle at a time; it is re-admitted when the probes are healthy (a
 * cheap type filtered by mistake), and filtered again when a probe is costly (a real poison). The server's ORB runs {@code sla/poison-healing.yaml}.
 */
class HealingEndToEndTest {
    private ORB server;
    private ORB client;
    private PoisonMessagePoint point;
    private TradeImpl impl;
    private Trade trade;

    @BeforeEach
    void start() throws Exception {
        server = Nodes.irmi(Nodes.sla("poison-healing.yaml"));
        impl = new TradeImpl("backend");
        String ior = Nodes.export(server, impl);
        point = Nodes.runtime(server).poison().orElseThrow();
        client = Nodes.irmi();
        trade = Nodes.lookup(client, ior);
        for (int i = 0; i < 300; i++) { // the baseline a probe's cost is compared with
            trade.quote("IBM");
        }
    }

    @AfterEach
    void tearDown() {
        Nodes.destroy(client, server);
    }

    private boolean refusedAsPoison(long millis) throws RemoteException {
        return refused(() -> trade.poison(millis));
    }

    private static boolean refused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        Throwable t = catchThrowable(call);
        if (t == null) {
            return false;
        }
        assertThat(t).isInstanceOf(RemoteException.class);
        assertThat(t.getCause()).isInstanceOfSatisfying(TRANSIENT.class,
                e -> assertThat(e.minor).isEqualTo(MinorCodes.POISON_FILTERED));
        return true;
    }

    @Test
    void shouldReadmitAFalselyFilteredTypeWhoseProbesAreHealthy() throws Exception {
        // a false positive: the cheap quote filtered (by hand here; by a noisy episode in life)
        point.filter("quote", Nodes.runtime(server).nanoClock().getAsLong());
        assertThat(refused(() -> trade.quote("IBM"))).as("filtered, in its cool-down").isTrue();

        int letThrough = 0;
        int refusedCalls = 1;
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (point.filtered().contains("quote") && System.nanoTime() < deadline) {
            if (refused(() -> trade.quote("IBM"))) {
                refusedCalls++;
            } else {
                letThrough++;
            }
            Thread.sleep(10);
        }
        assertThat(point.filtered()).as("re-admitted after healthy probes").isEmpty();
        assertThat(letThrough).as("probes let through on probation").isPositive();
        assertThat(refusedCalls).as("refused during the cool-down and between probes").isGreaterThan(letThrough);
        for (int i = 0; i < 20; i++) {
            assertThat(refused(() -> trade.quote("IBM"))).as("re-admitted: every call goes through").isFalse();
        }
    }

    @Test
    void shouldFilterAgainWhenAProbeIsCostly() throws Exception {
        point.filter("poison", Nodes.runtime(server).nanoClock().getAsLong());
        long deadline = System.nanoTime() + 15_000_000_000L;
        boolean probed = false;
        while (!probed && System.nanoTime() < deadline) {
            probed = !refusedAsPoison(300); // a real poison call: 300 ms of 10 KB allocations
            Thread.sleep(20);
        }
        assertThat(probed).as("a probe was let through after the cool-down").isTrue();
        assertThat(impl.poisons.get()).isEqualTo(1);
        // on probation (20/s) most of these would pass; filtered again they are all refused
        int refused = 0;
        for (int i = 0; i < 10; i++) {
            if (refusedAsPoison(1)) {
                refused++;
            }
            Thread.sleep(40);
        }
        assertThat(refused).as("filtered again after the costly probe").isEqualTo(10);
        assertThat(point.filtered()).containsExactly("poison");
    }
}
