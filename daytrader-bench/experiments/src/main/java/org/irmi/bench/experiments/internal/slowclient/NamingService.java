package org.irmi.bench.experiments.internal.slowclient;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * omniORB's Naming Service ({@code omniNames}) on a free loopback port, for the reroute trial: the
 * replica secondary binds itself there and I-RMI's reroute module looks it up.
 */
final class NamingService implements AutoCloseable {

    static final Path EXECUTABLE = Path.of("/usr/bin/omniNames");

    private final Process process;
    private final int port;

    private NamingService(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** @return whether omniNames is installed (Debian package omniorb-nameserver) */
    static boolean available() {
        return Files.isExecutable(EXECUTABLE);
    }

    /** Starts omniNames with its data in {@code dataDir} and waits (at most 10 s) until it accepts connections. */
    static NamingService start(Path dataDir) throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Files.createDirectories(dataDir);
        Process p = new ProcessBuilder(EXECUTABLE.toString(), "-start", String.valueOf(port), "-datadir",
                dataDir.toString(), "-always", "-ORBendPoint", "giop:tcp:127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dataDir.resolve("omniNames.out").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && p.isAlive()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return new NamingService(p, port);
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("omniNames did not start on port " + port + "; see "
                + dataDir.resolve("omniNames.out"));
    }

    /** @return the Naming Service's corbaloc URL */
    String url() {
        return "corbaloc:iiop:127.0.0.1:" + port + "/NameService";
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
