package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.omg.CORBA.ORB;

/**
 * Coverage-guided fuzzing of the real transport: the GIOP framer, the fragment reassembler and the
 * request parser, on a running I-RMI server over loopback. Each input is one connection: its first
 * byte picks how the rest is cut into writes (so headers and bodies also arrive split), the rest
 * is what the client sends, then the client half-closes and waits for the server to close.
 *
 * <p>What must hold for every input: the server closes the connection by itself (no hang, within
 * 10 s of the client's end of input), the selector thread keeps serving (an echo call every 64
 * inputs and after the last), and no bytes stay held in the inbound budget once the connections
 * are gone.
 *
 * <p>In a normal test run ({@code mvn test}) this replays the committed corpus under
 * {@code src/test/resources/org/irmi/orb/TransportFuzzTestInputs/framer/} (the CI smoke); with
 * {@code JAZZER_FUZZ=1} it fuzzes ({@code scripts/fuzz.sh}).
 */
class TransportFuzzTest {

    /** One server for all inputs of a run: starting an ORB per input would measure start-up. */
    private static final class Server {
        static final ORB SERVER = Orbs.irmi("irmi.transport.max_inbound_bytes", String.valueOf(16 << 20),
                "irmi.transport.stall_timeout_ms", "2000");
        static final ORB CLIENT = Orbs.irmi();
        static final Echo ECHO;
        static final IrmiTransport TRANSPORT;

        static {
            String ior = Orbs.serve(SERVER, new EchoServant());
            ECHO = EchoHelper.narrow(CLIENT.string_to_object(ior));
            TRANSPORT = Orbs.transport(SERVER);
        }
    }

    private static long inputs;

    @org.junit.jupiter.api.AfterAll
    static void stillServing() throws InterruptedException {
        try {
            assertServing();
        } finally {
            Orbs.destroy(Server.CLIENT, Server.SERVER);
        }
    }

    /** Jazzer's command-line entry point ({@code scripts/fuzz.sh}): the same check as the JUnit fuzz test. */
    public static void fuzzerTestOneInput(byte[] input) throws Exception {
        INSTANCE.framer(input);
    }

    private static final TransportFuzzTest INSTANCE = new TransportFuzzTest();

    @FuzzTest(maxDuration = "30m", maxExecutions = 1_000_000)
    @DictionaryEntries({"GIOP", "echoString", "echoBytes", "_is_a", "_non_existent", "RootPOA"})
    void framer(byte[] input) throws Exception {
        // Jazzer's SSRF detector flags every socket connect while fuzzing; this test connects to its own loopback server.
        try (SilentCloseable loopback = BugDetectors.allowNetworkConnections(
                (host, port) -> "127.0.0.1".equals(host) || "localhost".equals(host))) {
            int cut = input.length == 0 ? 0 : (input[0] & 0xff);
            int chunk = cut == 0 ? Math.max(1, input.length) : cut;
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", Server.TRANSPORT.port()), 5_000);
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                try {
                    for (int at = 1; at < input.length; at += chunk) {
                        out.write(input, at, Math.min(chunk, input.length - at));
                        out.flush();
                    }
                    s.shutdownOutput();
                } catch (IOException closedByServer) {
                    // the server closed it first (MessageError and close): what we wait for below
                }
                InputStream in = s.getInputStream();
                byte[] sink = new byte[8192];
                try {
                    while (in.read(sink) >= 0) {
                        // replies and MessageError are read and dropped
                    }
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("the server did not close a connection 10 s after its client's end of input", e);
                } catch (IOException reset) {
                    // closed with a reset: closed all the same
                }
            }
            if (++inputs % 64 == 0) {
                assertServing();
            }
        }
    }

    /** The selector keeps serving and the inbound budget returns to zero. */
    static void assertServing() throws InterruptedException {
        assertThat(Server.ECHO.echoString("still serving")).isEqualTo("still serving");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Server.TRANSPORT.stats().inboundHeldBytes() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(Server.TRANSPORT.stats().inboundHeldBytes()).as("bytes held after every connection closed").isZero();
    }
}
