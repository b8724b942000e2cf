package org.irmi.bench.experiments.internal.corba;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.irmi.bench.experiments.internal.OrbKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * The hand-written stub against the hand-written skeleton, over real plain JacORB ORBs on loopback:
 * every operation's arguments arrive and its result comes back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BenchObjectTest {
    private static final byte[] DATA = "sixteen bytes...".getBytes(StandardCharsets.US_ASCII);

    /** What the servant received: operation, stamp (or assembly nanoseconds) and the data's text. */
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch posted = new CountDownLatch(1);
    private ORB server;
    private ORB client;
    private BenchObject stub;

    @BeforeAll
    void serveOneNode() throws Exception {
        server = stockOrb();
        client = stockOrb();
        POA root = POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        NodeServant servant = new NodeServant() {
            @Override
            protected void push(long stampNanos, byte[] data) {
                received.add("push " + stampNanos + " " + new String(data, StandardCharsets.US_ASCII));
            }

            @Override
            protected void forward(long stampNanos, byte[] data) {
                received.add("forward " + stampNanos + " " + new String(data, StandardCharsets.US_ASCII));
            }

            @Override
            protected byte[] fetch() {
                return DATA;
            }

            @Override
            protected long put(String operation, long assembledNanos, byte[] data) {
                received.add(operation + " " + new String(data, StandardCharsets.US_ASCII));
                if (operation.equals("postSmall")) {
                    posted.countDown();
                }
                return data.length * 1000L;
            }
        };
        stub = BenchObject.narrow(client.string_to_object(
                server.object_to_string(root.servant_to_reference(servant))));
    }

    @AfterAll
    void shutDown() {
        for (ORB orb : new ORB[] {client, server}) {
            if (orb != null) {
                orb.shutdown(true);
                orb.destroy();
            }
        }
    }

    /** A plain JacORB ORB configured as the experiments' child JVMs are ({@link OrbKind#jvmOptions}). */
    private static ORB stockOrb() {
        Properties p = new Properties();
        for (String option : OrbKind.PLAIN.jvmOptions(null)) {
            int eq = option.indexOf('=');
            p.setProperty(option.substring("-D".length(), eq), option.substring(eq + 1));
        }
        return ORB.init(new String[0], p);
    }

    @Test
    void shouldReturnWhatTheServantMeasuredWhenPut() {
        assertThat(stub.put("putBulk", System.nanoTime(), DATA)).isEqualTo(DATA.length * 1000L);
        assertThat(received).contains("putBulk sixteen bytes...");
    }

    @Test
    void shouldDeliverAOnewayPost() throws InterruptedException {
        stub.post("postSmall", System.nanoTime(), DATA);
        assertThat(posted.await(10, TimeUnit.SECONDS)).as("the oneway request arrived").isTrue();
        assertThat(received).contains("postSmall sixteen bytes...");
    }

    @Test
    void shouldReturnTheServantsBytesWhenFetched() {
        assertThat(stub.fetch()).isEqualTo(DATA);
    }

    @Test
    void shouldDeliverPushAndForwardWithTheirStamps() {
        stub.push(42, DATA);
        stub.forward(43, DATA);
        assertThat(received).contains("push 42 sixteen bytes...", "forward 43 sixteen bytes...");
    }
}
