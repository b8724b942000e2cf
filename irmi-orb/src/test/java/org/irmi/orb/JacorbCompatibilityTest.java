package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import irmitest.Caller;
import irmitest.CallerHelper;
import irmitest.CallerPOA;
import irmitest.Echo;
import irmitest.EchoHelper;
import irmitest.Greeter;
import irmitest.GreeterHelper;
import irmitest.GreeterPOA;

import org.irmi.orb.internal.TransportConfig;
import org.jacorb.orb.giop.GIOPConnection;
import org.jacorb.orb.iiop.ServerIIOPConnection;
import org.jacorb.orb.listener.TCPConnectionEvent;
import org.jacorb.orb.listener.TCPConnectionListener;
import org.jacorb.orb.portableInterceptor.ServerRequestInfoImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.BiDirPolicy.BIDIRECTIONAL_POLICY_TYPE;
import org.omg.BiDirPolicy.BOTH;
import org.omg.BiDirPolicy.BidirectionalPolicyValueHelper;
import org.omg.CORBA.Any;
import org.omg.CORBA.COMM_FAILURE;
import org.omg.CORBA.LocalObject;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Policy;
import org.omg.PortableInterceptor.ORBInitInfo;
import org.omg.PortableInterceptor.ORBInitializer;
import org.omg.PortableInterceptor.ServerRequestInfo;
import org.omg.PortableInterceptor.ServerRequestInterceptor;
import org.omg.PortableServer.IdAssignmentPolicyValue;
import org.omg.PortableServer.ImplicitActivationPolicyValue;
import org.omg.PortableServer.LifespanPolicyValue;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * What code written for JacORB does with a server, done on I-RMI's selector transport: the
 * differences JacORB's own regression suite found (bugjac166, bugjac195, max_server_connections=0,
 * max_receptor_threads (bugjac460), bi-directional GIOP). The clients are stock JacORB.
 */
class JacorbCompatibilityTest {

    private static final String BIDIR_INIT = "org.omg.PortableInterceptor.ORBInitializerClass.bidir_init";
    private static final String BIDIR_INITIALIZER = "org.jacorb.orb.giop.BiDirConnectionInitializer";

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
        ClientAddressInterceptor.seen.clear();
        ClientAddressInterceptor.connections.clear();
        CountingTcpListener.opened.clear();
        CountingTcpListener.closed.clear();
    }

    // ------------------------------------------------------------------ bugjac166

    @Test
    void shouldGiveAServerInterceptorTheClientSocketTheWayJacorbDocumentsIt() throws Exception {
        server = Orbs.irmi("org.omg.PortableInterceptor.ORBInitializerClass." + AddressInitializer.class.getName(), "");
        client = Orbs.stock();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));

        assertThat(echo.echoString("hi")).isEqualTo("hi");

        assertThat(ClientAddressInterceptor.seen).as("the interceptor's cast to ServerIIOPConnection worked")
                .containsExactly("127.0.0.1");
    }

    /**
     * The selector transport releases the state of JacORB's own reader loop on its connections (it
     * never runs there; docs/benchmarks/echo.md, the heap per idle connection). Requests, large
     * ones included, and their replies must still work, and the fields must really be empty.
     */
    @Test
    void shouldServeWithoutJacorbsReaderStateOnTheConnection() throws Exception {
        server = Orbs.irmi("org.omg.PortableInterceptor.ORBInitializerClass." + AddressInitializer.class.getName(), "");
        client = Orbs.stock();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));
        byte[] big = new byte[3 * 1024 * 1024];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }

        for (int i = 0; i < 3; i++) {
            assertThat(echo.echoString("hi " + i)).isEqualTo("hi " + i);
            assertThat(echo.echoBytes(big)).isEqualTo(big);
        }

        assertThat(ClientAddressInterceptor.connections).isNotEmpty();
        GIOPConnection connection = ClientAddressInterceptor.connections.get(0);
        assertThat(connection).isInstanceOf(org.irmi.orb.internal.IrmiServerGIOPConnection.class);
        for (String field : new String[] {"fragments", "fragmentsSize", "msg_header", "inbuf"}) {
            java.lang.reflect.Field f = GIOPConnection.class.getDeclaredField(field);
            f.setAccessible(true);
            assertThat(f.get(connection)).as(field).isNull();
        }
    }

    /** JacORB's proprietary way (its bugjac166 test) to learn the client's address in an interceptor. */
    static final class ClientAddressInterceptor extends LocalObject implements ServerRequestInterceptor {
        static final List<String> seen = new CopyOnWriteArrayList<>();
        static final List<GIOPConnection> connections = new CopyOnWriteArrayList<>();

        @Override
        public void receive_request(ServerRequestInfo ri) {
            GIOPConnection connection = ((ServerRequestInfoImpl) ri).getConnection();
            connections.add(connection);
            ServerIIOPConnection transport = (ServerIIOPConnection) connection.getTransport();
            Socket socket = transport.getSocket();
            seen.add(socket.getInetAddress().getHostAddress());
        }

        @Override
        public void receive_request_service_contexts(ServerRequestInfo ri) {
        }

        @Override
        public void send_reply(ServerRequestInfo ri) {
        }

        @Override
        public void send_exception(ServerRequestInfo ri) {
        }

        @Override
        public void send_other(ServerRequestInfo ri) {
        }

        @Override
        public String name() {
            return "ClientAddressInterceptor";
        }

        @Override
        public void destroy() {
        }
    }

    /** Registers {@link ClientAddressInterceptor}; named by an ORB property, as an application would. */
    public static final class AddressInitializer extends LocalObject implements ORBInitializer {
        @Override
        public void pre_init(ORBInitInfo info) {
            try {
                info.add_server_request_interceptor(new ClientAddressInterceptor());
            } catch (org.omg.PortableInterceptor.ORBInitInfoPackage.DuplicateName e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void post_init(ORBInitInfo info) {
        }
    }

    // ------------------------------------------------------------------ bugjac195

    @Test
    void shouldTellTheTcpListenerOfEveryConnectionOpenedAndClosed() throws Exception {
        server = Orbs.irmi("jacorb.net.tcp_listener", CountingTcpListener.class.getName());
        Orbs.serve(server, new EchoServant());
        int port = Orbs.transport(server).port();
        List<Integer> clientPorts = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 5; i++) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                clientPorts.add(s.getLocalPort());
                awaitTrue(() -> CountingTcpListener.opened.size() == clientPorts.size(), "opened event " + (i + 1));
            }
        }
        awaitTrue(() -> CountingTcpListener.closed.size() == 5, "5 closed events");

        assertThat(CountingTcpListener.opened).hasSize(5);
        assertThat(CountingTcpListener.opened).extracting(TCPConnectionEvent::getRemotePort)
                .containsExactlyElementsOf(clientPorts);
        assertThat(CountingTcpListener.opened).allSatisfy(e -> {
            assertThat(e.getRemoteIP()).isEqualTo("127.0.0.1");
            assertThat(e.getLocalPort()).isEqualTo(port);
            assertThat(e.getSource()).isInstanceOf(ServerIIOPConnection.class);
        });
        assertThat(CountingTcpListener.closed).extracting(TCPConnectionEvent::getRemotePort)
                .containsExactlyInAnyOrderElementsOf(clientPorts);
    }

    /** A {@code jacorb.net.tcp_listener} that records its events. */
    public static final class CountingTcpListener implements TCPConnectionListener {
        static final List<TCPConnectionEvent> opened = new CopyOnWriteArrayList<>();
        static final List<TCPConnectionEvent> closed = new CopyOnWriteArrayList<>();

        @Override
        public boolean isListenerEnabled() {
            return true;
        }

        @Override
        public void connectionOpened(TCPConnectionEvent e) {
            opened.add(e);
        }

        @Override
        public void connectionClosed(TCPConnectionEvent e) {
            closed.add(e);
        }
    }

    // ------------------------------------------------------------------ max_server_connections

    @Test
    void shouldCloseEveryConnectionAtAcceptWhenMaxServerConnectionsIsZero() throws Exception {
        server = Orbs.irmi("jacorb.connection.max_server_connections", "0");
        Orbs.serve(server, new EchoServant());
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", Orbs.transport(server).port()), 5_000);
            s.setSoTimeout(10_000);
            InputStream in = s.getInputStream();
            int read;
            try {
                read = in.read();
            } catch (SocketException reset) {
                read = -1;
            }
            assertThat(read).as("the server closed the connection").isEqualTo(-1);
        }
        assertThat(Orbs.transport(server).stats().refusedConnections()).isEqualTo(1);
    }

    @Test
    void shouldNameJacorbsOwnKeyWhenMaxServerConnectionsIsNegative() {
        server = Orbs.irmi("jacorb.connection.max_server_connections", "-1");
        assertThatThrownBy(() -> Orbs.serve(server, new EchoServant()))
                .hasStackTraceContaining("jacorb.connection.max_server_connections must be >= 0 but is -1")
                .satisfies(e -> assertThat(stackTrace(e)).doesNotContain("irmi.transport.jacorb"));
    }

    // ------------------------------------------------------------------ max_receptor_threads (bugjac460)

    @Test
    void shouldRefuseAConnectionBeyondMaxReceptorThreadsAndServeItOnceTheFirstCloses() throws Exception {
        server = Orbs.irmi(TransportConfig.MAX_RECEPTOR_THREADS, "1");
        String ior = Orbs.serve(server, new EchoServant());
        IrmiTransport transport = Orbs.transport(server);
        client = Orbs.stock();
        assertThat(EchoHelper.narrow(client.string_to_object(ior)).echoString("first")).isEqualTo("first");

        ORB second = Orbs.stock("jacorb.retries", "0");
        try {
            Echo echo = EchoHelper.unchecked_narrow(second.string_to_object(ior));
            // as JacORB's BugJac460Test: the second connection's call fails while the first is open
            assertThatThrownBy(() -> echo.echoString("second")).isInstanceOf(COMM_FAILURE.class);
            assertThat(transport.stats().refusedConnections()).isEqualTo(1);

            Orbs.destroy(client);
            client = null;
            awaitTrue(() -> transport.stats().openConnections() == 0, "the first client's connection closed");
            assertThat(echo.echoString("now")).isEqualTo("now");
        } finally {
            Orbs.destroy(second);
        }
    }

    @Test
    void shouldNameJacorbsOwnKeyWhenMaxReceptorThreadsIsNegative() {
        server = Orbs.irmi(TransportConfig.MAX_RECEPTOR_THREADS, "-1");
        assertThatThrownBy(() -> Orbs.serve(server, new EchoServant()))
                .hasStackTraceContaining("jacorb.connection.server.max_receptor_threads must be >= 0 but is -1");
    }

    private static String stackTrace(Throwable e) {
        java.io.StringWriter w = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    // ------------------------------------------------------------------ bugjac563 (TLS itself: TlsTest)

    @Test
    void shouldSayWhatIsMissingWhenSslIsOnWithoutAKeystore() {
        server = Orbs.irmi("jacorb.security.support_ssl", "on",
                "jacorb.ssl.socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLSocketFactory",
                "jacorb.ssl.server_socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLServerSocketFactory");
        assertThatThrownBy(() -> Orbs.serve(server, new EchoServant()))
                .hasStackTraceContaining("jacorb.security.support_ssl=on needs jacorb.security.keystore and"
                        + " jacorb.security.keystore_password");
    }

    // ------------------------------------------------------------------ bi-directional GIOP

    @Test
    void shouldCallTheClientBackOverItsOwnConnectionWithBiDirGiop() throws Exception {
        server = Orbs.irmi(BIDIR_INIT, BIDIR_INITIALIZER);
        client = Orbs.stock(BIDIR_INIT, BIDIR_INITIALIZER, "jacorb.net.tcp_listener", CountingTcpListener.class.getName());
        Caller caller = CallerHelper.narrow(client.string_to_object(serveBiDir(server, new CallerServant())));
        Greeter greeter = GreeterHelper.narrow(client.string_to_object(serveBiDir(client, new GreeterServant())));
        CountingTcpListener.opened.clear(); // the client's own listener: connections made to the client

        for (int i = 0; i < 20; i++) {
            assertThat(caller.callBackWith(greeter, "call " + i)).isEqualTo("hello, call " + i);
        }

        assertThat(acceptedByClient()).as("connections the server opened to the client for the callbacks").isEmpty();
        assertThat(Orbs.transport(server).stats().openConnections()).isEqualTo(1);
    }

    @Test
    void shouldOpenAConnectionToTheClientForCallbacksWithoutBiDirGiop() throws Exception {
        // the same calls without the BiDir policy: the check above can fail
        server = Orbs.irmi();
        client = Orbs.stock("jacorb.net.tcp_listener", CountingTcpListener.class.getName());
        Caller caller = CallerHelper.narrow(client.string_to_object(Orbs.serve(server, new CallerServant())));
        Greeter greeter = GreeterHelper.narrow(client.string_to_object(Orbs.serve(client, new GreeterServant())));
        CountingTcpListener.opened.clear();

        assertThat(caller.callBackWith(greeter, "x")).isEqualTo("hello, x");

        assertThat(acceptedByClient()).hasSize(1);
    }

    @Test
    void shouldAnswerAnUnsolicitedReplyWithMessageErrorAndKeepServing() throws Exception {
        server = Orbs.irmi(BIDIR_INIT, BIDIR_INITIALIZER);
        client = Orbs.stock();
        String ior = Orbs.serve(server, new EchoServant());
        try (GiopClient c = new GiopClient(Orbs.transport(server).port())) {
            GiopClient.Cdr m = new GiopClient.Cdr();
            m.header(1, 2, 0); // a GIOP 1.2 Reply nobody asked for
            m.ulong(7);
            m.ulong(0); // NO_EXCEPTION
            m.ulong(0); // no service contexts
            c.send(m.finish());
            byte[] answer = c.readMessage();
            assertThat(GiopClient.type(answer)).as("MessageError").isEqualTo(6);
        }
        assertThat(EchoHelper.narrow(client.string_to_object(ior)).echoString("still")).isEqualTo("still");
    }

    /** Connections the client ORB accepted (its listener also hears of those it opens itself). */
    private static List<TCPConnectionEvent> acceptedByClient() {
        return CountingTcpListener.opened.stream().filter(e -> e.getSource() instanceof ServerIIOPConnection).toList();
    }

    /** Activates {@code servant} on a POA with the BiDir policy BOTH (as JacORB's BiDirTest does). */
    private static String serveBiDir(ORB orb, org.omg.PortableServer.Servant servant) throws Exception {
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        Any both = orb.create_any();
        BidirectionalPolicyValueHelper.insert(both, BOTH.value);
        Policy[] policies = {
            root.create_lifespan_policy(LifespanPolicyValue.TRANSIENT),
            root.create_id_assignment_policy(IdAssignmentPolicyValue.SYSTEM_ID),
            root.create_implicit_activation_policy(ImplicitActivationPolicyValue.IMPLICIT_ACTIVATION),
            orb.create_policy(BIDIRECTIONAL_POLICY_TYPE.value, both),
        };
        POA bidir = root.create_POA("BiDirPOA", root.the_POAManager(), policies);
        root.the_POAManager().activate();
        return orb.object_to_string(bidir.servant_to_reference(servant));
    }

    private static final class CallerServant extends CallerPOA {
        @Override
        public String callBackWith(Greeter g, String name) {
            return g.greet(name);
        }
    }

    private static final class GreeterServant extends GreeterPOA {
        @Override
        public String greet(String name) {
            return "hello, " + name;
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
