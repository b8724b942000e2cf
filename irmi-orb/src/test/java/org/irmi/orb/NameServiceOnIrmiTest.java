package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/**
 * JacORB's own Naming Service ({@code org.jacorb.naming.NameServer}, which casts its ORB to
 * {@code org.jacorb.orb.ORB}) started unchanged, in a JVM of its own, with I-RMI switched on by its
 * two properties, and used by a stock JacORB client.
 */
class NameServiceOnIrmiTest {

    @TempDir
    Path dir;

    private Process nameServer;
    private ORB client;
    private ORB server;

    @AfterEach
    void tearDown() throws InterruptedException {
        Orbs.destroy(client, server);
        if (nameServer != null) {
            nameServer.destroy();
            if (!nameServer.waitFor(20, TimeUnit.SECONDS)) {
                nameServer.destroyForcibly();
            }
        }
    }

    @Test
    void shouldRunJacorbsNameServerOnTheSelectorTransport() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path iorFile = dir.resolve("ns.ior");
        Path log = dir.resolve("ns.log");
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.omg.CORBA.ORBClass=org.jacorb.orb.ORB",
                "-Dorg.omg.CORBA.ORBSingletonClass=org.jacorb.orb.ORBSingleton",
                "-DOAIAddr=127.0.0.1", "-DOAPort=" + port,
                // switched as docs/orb.md says: the initializer alone takes over IIOP
                "-Dorg.omg.PortableInterceptor.ORBInitializerClass.irmi=org.irmi.orb.internal.IrmiOrbInitializer",
                // I-RMI's own limit, to tell from outside which transport reads the connections
                "-Dirmi.transport.max_message_bytes=65536",
                "-Djacorb.naming.ior_filename=" + iorFile, "-Djacorb.naming.time_out=120000",
                "-Djacorb.naming.db_dir=" + dir, // its persistent contexts, not in the module's folder
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "org.jacorb.naming.NameServer"));
        nameServer = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(iorFile) && Files.readString(iorFile).trim().startsWith("IOR:"))) {
            if (System.nanoTime() > deadline || !nameServer.isAlive()) {
                throw new AssertionError("the NameServer wrote no IOR; its output:\n" + readLog(log));
            }
            Thread.sleep(50);
        }

        client = Orbs.stock();
        server = Orbs.stock();
        NamingContextExt root = NamingContextExtHelper.narrow(client.string_to_object(Files.readString(iorFile).trim()));
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));
        root.rebind(root.to_name("echo"), echo);
        Echo found = EchoHelper.narrow(root.resolve_str("echo"));

        assertThat(found.echoString("via JacORB's naming service")).isEqualTo("via JacORB's naming service");
        // a header declaring a body over I-RMI's limit: MessageError at once (JacORB's own
        // transport would wait for the body)
        try (GiopClient raw = new GiopClient(port)) {
            raw.socket.setSoTimeout(10_000);
            GiopClient.Cdr m = new GiopClient.Cdr();
            m.header(0, 2, 0);
            byte[] header = m.finish();
            header[8] = 0;
            header[9] = 0x10; // 1 MiB, big-endian
            header[10] = 0;
            header[11] = 0;
            raw.send(java.util.Arrays.copyOf(header, 12));
            assertThat(GiopClient.type(raw.readMessage())).as("MessageError from the selector transport").isEqualTo(6);
        }
    }

    private static String readLog(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }
}
