package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.ORB;

/**
 * IIOP over TLS on the selector thread, configured with JacORB's own SSL keys, called by stock
 * JacORB clients through JacORB's SSL socket factory.
 */
class TlsTest {

    private static final String PASSWORD = "changeit";

    @TempDir
    static Path keys;

    private static Path serverKeys;
    private static Path clientKeys;
    private static Path certifiedClientKeys;

    private ORB server;
    private ORB client;

    @BeforeAll
    static void makeKeys() throws Exception {
        serverKeys = keys.resolve("server.jks");
        clientKeys = keys.resolve("client.jks");
        Path cert = keys.resolve("server.cer");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-validity", "2", "-keystore", serverKeys.toString(), "-storetype", "JKS", "-storepass", PASSWORD,
                "-keypass", PASSWORD);
        keytool("-exportcert", "-alias", "server", "-keystore", serverKeys.toString(), "-storepass", PASSWORD,
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", cert.toString(), "-keystore",
                clientKeys.toString(), "-storetype", "JKS", "-storepass", PASSWORD);
        // a client with a certificate of its own, which the server trusts (in its key store)
        certifiedClientKeys = keys.resolve("certified-client.jks");
        Path clientCert = keys.resolve("client.cer");
        keytool("-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=client",
                "-validity", "2", "-keystore", certifiedClientKeys.toString(), "-storetype", "JKS", "-storepass",
                PASSWORD, "-keypass", PASSWORD);
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", cert.toString(), "-keystore",
                certifiedClientKeys.toString(), "-storetype", "JKS", "-storepass", PASSWORD);
        keytool("-exportcert", "-alias", "client", "-keystore", certifiedClientKeys.toString(), "-storepass", PASSWORD,
                "-file", clientCert.toString());
        keytool("-importcert", "-noprompt", "-alias", "client", "-file", clientCert.toString(), "-keystore",
                serverKeys.toString(), "-storetype", "JKS", "-storepass", PASSWORD);
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", args) + ": " + out);
        }
    }

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    /** An I-RMI server with TLS; {@code required} makes the plain port refuse connections. */
    private static ORB tlsServer(boolean required, String... extra) {
        List<String> p = new ArrayList<>(List.of(
                "jacorb.security.support_ssl", "on",
                "jacorb.ssl.socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLSocketFactory",
                "jacorb.ssl.server_socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLServerSocketFactory",
                "jacorb.security.keystore", serverKeys.toString(),
                "jacorb.security.keystore_password", PASSWORD,
                "jacorb.security.ssl.server.supported_options", "20",
                "jacorb.security.ssl.server.required_options", required ? "20" : "0"));
        p.addAll(List.of(extra));
        return Orbs.irmi(p.toArray(String[]::new));
    }

    /** A stock JacORB client that calls over TLS only, trusting the server's certificate. */
    private static ORB tlsClient() {
        return tlsClient(clientKeys, "20");
    }

    /** @param supported the client's supported options (hex): 60 adds EstablishTrustInClient, its certificate */
    private static ORB tlsClient(Path keystore, String supported) {
        return Orbs.stock(
                "jacorb.security.support_ssl", "on",
                "jacorb.ssl.socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLSocketFactory",
                "jacorb.ssl.server_socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLServerSocketFactory",
                "jacorb.security.keystore", keystore.toString(),
                "jacorb.security.keystore_password", PASSWORD,
                "jacorb.security.jsse.trustees_from_ks", "on",
                "jacorb.security.ssl.client.supported_options", supported,
                "jacorb.security.ssl.client.required_options", "20");
    }

    @Test
    void shouldServeAStockJacorbClientOverTls() {
        server = tlsServer(true);
        client = tlsClient();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));

        assertThat(echo.echoString("sealed")).isEqualTo("sealed");
        byte[] big = new byte[3 * 1024 * 1024 + 17]; // hundreds of records each way
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }
        assertThat(echo.echoBytes(big)).isEqualTo(big);

        IrmiTransport transport = Orbs.transport(server);
        assertThat(transport.stats().tlsHandshakes()).isEqualTo(1);
        assertThat(transport.stats().bytesRead()).as("plain GIOP bytes read out of TLS").isGreaterThan(big.length);
    }

    @Test
    void shouldServeConcurrentTlsClients() throws Exception {
        server = tlsServer(true);
        String ior = Orbs.serve(server, new EchoServant());
        List<ORB> clients = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int c = 0; c < 6; c++) {
                ORB orb = tlsClient();
                clients.add(orb);
                Echo echo = EchoHelper.narrow(orb.string_to_object(ior));
                int id = c;
                done.add(pool.submit(() -> {
                    int ok = 0;
                    for (int i = 0; i < 200; i++) {
                        String s = "client " + id + " call " + i;
                        if (echo.echoString(s).equals(s)) {
                            ok++;
                        }
                    }
                    return ok;
                }));
            }
            for (Future<Integer> f : done) {
                assertThat(f.get(120, TimeUnit.SECONDS)).isEqualTo(200);
            }
            assertThat(Orbs.transport(server).stats().tlsHandshakes()).isEqualTo(6);
        } finally {
            pool.shutdownNow();
            Orbs.destroy(clients.toArray(ORB[]::new));
        }
    }

    @Test
    void shouldRefusePlainTextWhereTlsIsRequired() throws IOException {
        server = tlsServer(true);
        Orbs.serve(server, new EchoServant());
        try (Socket s = new Socket("127.0.0.1", Orbs.transport(server).port())) {
            s.setSoTimeout(10_000);
            assertThat(readOrReset(s.getInputStream())).as("closed at accept").isEqualTo(-1);
        }
        assertThat(Orbs.transport(server).stats().refusedConnections()).isEqualTo(1);
    }

    @Test
    void shouldKeepThePlainPortWhereTlsIsOnlySupported() {
        server = tlsServer(false);
        client = Orbs.stock();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));

        assertThat(echo.echoString("plain")).isEqualTo("plain");
        assertThat(Orbs.transport(server).stats().tlsHandshakes()).isZero();
    }

    @Test
    void shouldCloseAHandshakeThatStallsLikeAStalledMessage() throws Exception {
        server = tlsServer(true, "irmi.transport.stall_timeout_ms", "500", "irmi.transport.sweep_interval_ms", "50");
        client = tlsClient();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));
        int tlsPort = Orbs.transport(server).tlsPort();
        try (Socket s = new Socket("127.0.0.1", tlsPort)) {
            s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01}); // the start of a ClientHello, then nothing
            s.setSoTimeout(10_000);
            assertThat(readOrReset(s.getInputStream())).as("closed by the stall sweep").isEqualTo(-1);
        }
        assertThat(Orbs.transport(server).stats().stallCloses()).isEqualTo(1);
        assertThat(echo.echoString("others served")).isEqualTo("others served");
    }

    @Test
    void shouldServeOnlyClientsWithATrustedCertificateWhereTheServerRequiresOne() {
        server = tlsServer(true, "jacorb.security.ssl.server.required_options", "40",
                "jacorb.security.jsse.trustees_from_ks", "on");
        String ior = Orbs.serve(server, new EchoServant());
        client = tlsClient(certifiedClientKeys, "60");
        ORB anonymous = tlsClient(clientKeys, "20");
        try {
            assertThat(EchoHelper.narrow(client.string_to_object(ior)).echoString("certified")).isEqualTo("certified");
            Echo refused = EchoHelper.narrow(anonymous.string_to_object(ior));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> refused.echoString("anonymous"))
                    .isInstanceOf(org.omg.CORBA.SystemException.class);
        } finally {
            Orbs.destroy(anonymous);
        }
        assertThat(Orbs.transport(server).stats().tlsHandshakes()).as("only the certified client's").isEqualTo(1);
    }

    private static int readOrReset(InputStream in) throws IOException {
        try {
            return in.read();
        } catch (SocketException reset) {
            return -1;
        }
    }
}
