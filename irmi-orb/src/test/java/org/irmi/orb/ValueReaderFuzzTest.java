package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.net.SocketTimeoutException;
import javax.rmi.CORBA.Tie;
import javax.rmi.CORBA.Util;
import javax.rmi.PortableRemoteObject;

import org.irmi.orb.rmi.ReadTripwire;
import org.irmi.orb.rmi.RemoteEcho;
import org.irmi.orb.rmi.RemoteEchoImpl;
import org.junit.jupiter.api.AfterAll;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.Servant;

/**
 * Coverage-guided fuzzing of the RMI-IIOP value reader behind I-RMI's value filter, through the
 * real server: each input is the argument bytes of one request to an exported Remote object
 * ({@code echoText(String)}, {@code measure(Object)} or {@code greet(Greeting)}, picked by the
 * input's first byte), read by JacORB and GlassFish's value handler inside the filter.
 *
 * <p>What must hold for every input: the request is answered (a reply or a MessageError and
 * close, within 10 s), the tripwire class's {@code readObject} never runs (its name is in the
 * fuzzer's dictionary, so inputs do name it), no invocation runs out of memory (JacORB answers
 * {@code NO_MEMORY} then: the server allocated at a size the input declared), and the server keeps
 * serving.
 *
 * <p>The seed corpus holds the shapes of the value filter's attacks, for the fuzzer to mutate:
 * collections whose size field says 2^28 ({@code measure-arraylist-size-2^28}, {@code measure-hashmap-size-2^28},
 * ...) and nested hash sets ({@code measure-nested-hashsets-36}), made by {@link HostilePayloads}.
 *
 * <p>{@code mvn test} replays the committed corpus under
 * {@code src/test/resources/org/irmi/orb/ValueReaderFuzzTestInputs/values/} (the CI smoke);
 * {@code JAZZER_FUZZ=1} fuzzes ({@code scripts/fuzz.sh}).
 */
class ValueReaderFuzzTest {

    private static final String[] OPERATIONS = {"echoText", "measure", "greet"};

    private static final class Server {
        static final ORB SERVER = Orbs.irmi();
        static final String IOR;
        static final byte[] KEY;
        static final int PORT;

        static {
            try {
                RemoteEchoImpl impl = new RemoteEchoImpl();
                PortableRemoteObject.exportObject(impl);
                Tie tie = Util.getTie(impl);
                POA root = POAHelper.narrow(SERVER.resolve_initial_references("RootPOA"));
                root.the_POAManager().activate();
                IOR = SERVER.object_to_string(root.servant_to_reference((Servant) tie));
                KEY = GiopClient.objectKey(SERVER.string_to_object(IOR));
                PORT = Orbs.transport(SERVER).port();
            } catch (Exception e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    private static int requestId;

    /** Jazzer's command-line entry point ({@code scripts/fuzz.sh}): the same check as the JUnit fuzz test. */
    public static void fuzzerTestOneInput(byte[] input) throws Exception {
        INSTANCE.values(input);
    }

    private static final ValueReaderFuzzTest INSTANCE = new ValueReaderFuzzTest();

    @FuzzTest(maxDuration = "30m", maxExecutions = 1_000_000)
    @DictionaryEntries({"RMI:org.irmi.orb.rmi.ReadTripwire:0000000000000001", "RMI:java.util.HashMap:",
            "RMI:java.net.URL:", "RMI:java.lang.String:", "IDL:omg.org/CORBA/WStringValue:1.0",
            "RMI:org.irmi.orb.rmi.Greeting:", "RMI:[B:", "RMI:[Ljava.lang.Object;:", "RMI:java.util.ArrayList:",
            "RMI:java.util.HashSet:", "RMI:java.util.Hashtable:", "RMI:java.lang.Integer:", "\u0010\u0000\u0000\u0000"})
    void values(byte[] input) throws Exception {
        // Jazzer's SSRF detector flags every socket connect while fuzzing; this test connects to its own loopback server.
        try (SilentCloseable loopback = BugDetectors.allowNetworkConnections(
                (host, port) -> "127.0.0.1".equals(host) || "localhost".equals(host))) {
            String operation = input.length == 0 ? OPERATIONS[0] : OPERATIONS[(input[0] & 0xff) % OPERATIONS.length];
            byte[] args = input.length == 0 ? input : java.util.Arrays.copyOfRange(input, 1, input.length);
            try (GiopClient c = new GiopClient(Server.PORT)) {
                c.socket.setSoTimeout(10_000);
                try {
                    c.send(GiopClient.request12(++requestId, Server.KEY, operation, args, true));
                    byte[] reply = c.readMessage();
                    // JacORB catches an OutOfMemoryError of the invocation and answers NO_MEMORY: the
                    // input made the server allocate at a size it declared (the first finding)
                    if (GiopClient.type(reply) == 1 && GiopClient.replyStatus(reply) == 2) {
                        assertThat(GiopClient.exceptionId(reply)).as("allocation at a declared size")
                                .isNotEqualTo("IDL:omg.org/CORBA/NO_MEMORY:1.0");
                    }
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("no reply and no close 10 s after a request to " + operation, e);
                } catch (IOException closedByServer) {
                    // MessageError and close: an answer too
                }
            }
            assertThat(ReadTripwire.READS.get()).as("readObject of a class the filter does not allow").isZero();
        }
    }

    @AfterAll
    static void stillServing() throws Exception {
        ORB client = Orbs.stock();
        try {
            RemoteEcho echo = (RemoteEcho) PortableRemoteObject.narrow(client.string_to_object(Server.IOR), RemoteEcho.class);
            assertThat(echo.echoText("still serving")).isEqualTo("still serving");
        } finally {
            Orbs.destroy(client, Server.SERVER);
        }
        assertThat(ReadTripwire.READS.get()).isZero();
    }
}
