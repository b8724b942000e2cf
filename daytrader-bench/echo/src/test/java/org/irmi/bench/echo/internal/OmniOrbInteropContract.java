package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.irmi.bench.echo.EchoServer;
import org.irmi.bench.echo.OrbVariant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The omniORB C++ interop client against an echo server on one ORB variant. The client reaches the
 * server through a {@link GiopRelay} (by a GIOP 1.2 corbaloc URL) so the tests can check on the
 * wire that its 1 MB requests really are fragmented GIOP 1.2. Skipped, saying what to install,
 * where the omniORB tool chain is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OmniOrbInteropContract {

    private static final int ONE_MB = 1024 * 1024;

    private EchoServer server;
    private GiopRelay relay;
    private Processes.Result run;
    /** How many threads named irmi-selector appeared when the server started. */
    long selectorThreadsStarted;

    /** The variant under test. */
    abstract OrbVariant variant();

    @BeforeAll
    void runInteropClient() throws Exception {
        assumeTrue(NativeClients.unavailableReason().isEmpty(),
                () -> "omniORB interop test skipped: " + NativeClients.unavailableReason().orElse(""));
        assumeTrue(variant().isAvailable(),
                () -> "interop test for " + variant().name() + " skipped: " + variant().orbClass() + " is not on the class path yet");
        NativeClients clients = NativeClients.build();
        long selectorsBefore = selectorThreads();
        server = EchoServer.start(variant(), "127.0.0.1", 0, Map.of());
        selectorThreadsStarted = selectorThreads() - selectorsBefore;
        IorInfo ior = IorInfo.parse(server.ior());
        relay = new GiopRelay(ior.host(), ior.port());
        run = Processes.run(List.of(clients.interopClient().toString(),
                        "-ior", ior.corbaloc("127.0.0.1", relay.port()),
                        "-size", "0", "-size", "100", "-size", "4096", "-size", "65536", "-size", Integer.toString(ONE_MB),
                        "-buffered-size", Integer.toString(ONE_MB),
                        "-ORBmaxGIOPVersion", "1.2", "-ORBgiopMaxMsgSize", Integer.toString(4 * ONE_MB)),
                null, Duration.ofSeconds(60));
    }

    private static long selectorThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("irmi-selector")).count();
    }

    @AfterAll
    void stop() throws Exception {
        if (relay != null) {
            relay.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldEchoEveryByteOfEverySizeWhenOmniOrbClientCalls() {
        assertThat(run.output()).as(run.output())
                .contains("CHECK ok echo-0 ", "CHECK ok echo-100 ", "CHECK ok echo-65536 ",
                        "CHECK ok echo-1048576 all 1048576 bytes echoed")
                .containsPattern("BUFFERED size=1048576\\s+CHECK ok echo-1048576 ");
    }

    @Test
    void shouldCarrySystemExceptionsWithMinorCodesWhenServantThrows() {
        assertThat(run.output()).as(run.output())
                .contains("CHECK ok fail-TRANSIENT TRANSIENT minor=1230110721 completed=1",
                        "CHECK ok fail-NO_RESOURCES NO_RESOURCES minor=7",
                        "CHECK ok fail-BAD_PARAM BAD_PARAM minor=42",
                        "CHECK ok fail-USER EchoRefused reason=refused as asked");
    }

    @Test
    void shouldPassEveryCheckWhenOmniOrbClientCalls() {
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).doesNotContain("CHECK FAIL").contains("INTEROP passed=12 failed=0");
    }

    @Test
    void shouldSendGiop12RequestsWhenClientAsksForGiop12() {
        List<GiopRelay.Header> requests = relay.clientHeaders().stream()
                .filter(h -> h.type() == GiopRelay.REQUEST).toList();
        assertThat(relay.parseError()).isNull();
        assertThat(requests).hasSizeGreaterThanOrEqualTo(12)
                .allSatisfy(h -> assertThat(h.major() + "." + h.minor()).isEqualTo("1.2"));
    }

    @Test
    void shouldReachServerAsManyFragmentsWhenRequestIsOneMegabyte() {
        List<GiopRelay.Header> headers = relay.clientHeaders();
        // Direct send: one large Request flagged "more fragments", ended by a Fragment.
        assertThat(headers).anySatisfy(h -> {
            assertThat(h.type()).isEqualTo(GiopRelay.REQUEST);
            assertThat(h.moreFragments()).isTrue();
            assertThat(h.size()).isGreaterThan(ONE_MB / 2);
        });
        // Buffered send: a 1 MB request staged through 8 KB buffers, one Fragment per buffer.
        assertThat(headers.stream().filter(h -> h.type() == GiopRelay.FRAGMENT && h.moreFragments()).count())
                .isGreaterThanOrEqualTo(100);
        assertThat(headers).filteredOn(h -> h.type() == GiopRelay.FRAGMENT)
                .allSatisfy(h -> assertThat(h.size()).isLessThanOrEqualTo(16 * 1024));
    }
}
