package org.irmi.orb.naming;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * omniORB's Naming Service ({@code omniNames}) on a free loopback port, started as a child process
 * of this JVM: the slow-client experiment's reroute trial and the end-to-end tests bind a replica
 * there, and I-RMI's reroute module looks it up ({@link #corbaloc()} as {@code ORBInitRef.NameService}).
 *
 * <p>Lives in irmi-orb because both of its users (the experiments and the integration tests) depend
 * on this module already, and it needs nothing beyond the JDK.
 *
 * <p>THREADING: start and close it on one thread; {@link #corbaloc()} may be read from any.
 */
public final class OmniNames implements AutoCloseable {

    /** Where Debian's package {@code omniorb-nameserver} installs omniNames. */
    public static final Path EXECUTABLE = Path.of("/usr/bin/omniNames");

    private static final long START_TIMEOUT_SECONDS = 10;

    private final Process process;
    private final int port;

    private OmniNames(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** @return whether omniNames is installed (Debian package {@code omniorb-nameserver}) */
    public static boolean available() {
        return Files.isExecutable(EXECUTABLE);
    }

    /**
     * Starts omniNames with its data (and its output, {@code omniNames.out}) in {@code dataDir} and
     * waits, at most 10 s, until it accepts connections.
     *
     * @throws IllegalStateException when it exits or does not listen in time (naming its output file)
     */
    public static OmniNames start(Path dataDir) throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Files.createDirectories(dataDir);
        Process p = new ProcessBuilder(EXECUTABLE.toString(), "-start", String.valueOf(port), "-datadir",
                dataDir.toString(), "-always", "-ORBendPoint", "giop:tcp:127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dataDir.resolve("omniNames.out").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline && p.isAlive()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return new OmniNames(p, port);
            } catch (IOException notYet) {
                Thread.sleep(50); // polling a port that opens once; bounded by the deadline above
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("omniNames did not start on port " + port + "; see "
                + dataDir.resolve("omniNames.out"));
    }

    /** @return the Naming Service's root context as a corbaloc URL */
    public String corbaloc() {
        return "corbaloc:iiop:127.0.0.1:" + port + "/NameService";
    }

    /** Stops omniNames: politely, then forcibly after 5 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
