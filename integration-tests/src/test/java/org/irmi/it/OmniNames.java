package org.irmi.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** omniORB's Naming Service (omniNames), started on a free loopback port for one test. */
final class OmniNames implements AutoCloseable {
    private final Process process;
    private final int port;
    private final Path dataDir;

    private OmniNames(Process process, int port, Path dataDir) {
        this.process = process;
        this.port = port;
        this.dataDir = dataDir;
    }

    static OmniNames start() throws IOException, InterruptedException {
        Path exe = Path.of("/usr/bin/omniNames");
        Assumptions.assumeTrue(Files.isExecutable(exe),
                "omniNames is not installed (Debian package omniorb-nameserver; scripts/prereqs.sh"
                        + " installs it): the Naming Service test is skipped");
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("omninames");
        Process p = new ProcessBuilder(exe.toString(), "-start", String.valueOf(port), "-datadir",
                dir.toString(), "-always", "-ORBendPoint", "giop:tcp:127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("omniNames.out").toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return new OmniNames(p, port, dir);
            } catch (IOException notYet) {
                if (!p.isAlive()) {
                    break;
                }
                Thread.sleep(50);
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("omniNames did not start on port " + port + "; see "
                + dir.resolve("omniNames.out"));
    }

    String corbaloc() {
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
