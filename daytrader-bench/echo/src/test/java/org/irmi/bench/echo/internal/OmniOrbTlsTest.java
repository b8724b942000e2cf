package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.irmi.bench.echo.EchoServer;
import org.irmi.bench.echo.OrbVariants;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.TransportStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * omniORB's C++ SSL transport calls the echo server on the I-RMI ORB over IIOP on TLS (issue 15:
 * "a TLS round trip with the omniORB C++ client"). The server takes JacORB's SSL keys, as
 * {@code irmi-orb}'s TlsTest; the client ({@code echo_tls_client.cc}) trusts the server's
 * certificate (a PEM exported by keytool) and runs under the transport rule {@code "* ssl"}, so
 * it can only reach the server through the IOR's SSL component. Lives here because this module
 * builds the omniORB programs ({@link NativeClients}). Fails, naming scripts/prereqs.sh, where the
 * omniORB SSL tool chain is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OmniOrbTlsTest {

    private static final String PASSWORD = "changeit";
    private static final String MESSAGE = "sealed by omniORB";

    private Path client;
    private Path serverKeys;
    private Path caPem;
    private EchoServer server;

    @BeforeAll
    void buildClientAndKeys(@TempDir Path keys) throws Exception {
        assertTrue(NativeClients.tlsUnavailableReason().isEmpty(),
                () -> "the omniORB TLS client cannot be built: " + NativeClients.tlsUnavailableReason().orElse("")
                        + " (run scripts/prereqs.sh)");
        client = NativeClients.build().tlsClient();
        serverKeys = keys.resolve("server.jks");
        caPem = keys.resolve("server.pem");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-validity", "2", "-keystore", serverKeys.toString(), "-storetype", "JKS", "-storepass", PASSWORD,
                "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", serverKeys.toString(), "-storepass", PASSWORD,
                "-file", caPem.toString());
        assertThat(Files.readString(caPem)).startsWith("-----BEGIN CERTIFICATE-----");
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", args) + ": " + out);
        }
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** The echo server on I-RMI with TLS required: its plain port refuses every connection. */
    private EchoServer tlsServer() {
        return EchoServer.start(OrbVariants.irmi(), "127.0.0.1", 0, Map.of(
                "jacorb.security.support_ssl", "on",
                "jacorb.ssl.socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLSocketFactory",
                "jacorb.ssl.server_socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLServerSocketFactory",
                "jacorb.security.keystore", serverKeys.toString(),
                "jacorb.security.keystore_password", PASSWORD,
                "jacorb.security.ssl.server.supported_options", "20",
                "jacorb.security.ssl.server.required_options", "20"));
    }

    private Processes.Result callEcho(String ior) {
        return Processes.run(List.of(client.toString(), "-ior", ior, "-ca", caPem.toString(), "-message", MESSAGE,
                "-ORBclientCallTimeOutPeriod", "10000", "-ORBclientConnectTimeOutPeriod", "10000"),
                null, Duration.ofSeconds(60));
    }

    private TransportStats stats() {
        return ((IrmiORB) server.orb()).transport().orElseThrow().stats();
    }

    @Test
    void shouldEchoOverTlsWhenOmniOrbSslClientCalls() throws IOException {
        server = tlsServer();

        Processes.Result run = callEcho(server.ior());

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).as(run.output()).contains("ECHO " + MESSAGE);
        assertThat(server.calls()).isEqualTo(1);
        assertThat(stats().tlsHandshakes()).as("the call came in through the TLS port").isEqualTo(1);
        // and nothing could have come in plain: the plain port closes what it accepts
        long refusedBefore = stats().refusedConnections();
        assertThat(refusedBefore).as("connections the omniORB client made to the plain port").isZero();
        try (Socket s = new Socket("127.0.0.1", ((IrmiORB) server.orb()).transport().orElseThrow().port())) {
            s.setSoTimeout(10_000);
            assertThat(readOrReset(s)).as("plain connection closed at accept").isEqualTo(-1);
        }
        assertThat(stats().refusedConnections()).isEqualTo(refusedBefore + 1);
    }

    @Test
    void shouldFailCleanlyWhenSslOnlyClientGetsAnIorWithoutTls() {
        server = EchoServer.start(OrbVariants.irmi(), "127.0.0.1", 0, Map.of());

        Processes.Result run = callEcho(server.ior());

        assertThat(run.exitCode()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).as(run.output()).contains("RAISED TRANSIENT");
        assertThat(server.calls()).isZero();
    }

    private static int readOrReset(Socket s) throws IOException {
        try {
            return s.getInputStream().read();
        } catch (SocketException reset) {
            return -1;
        }
    }
}
