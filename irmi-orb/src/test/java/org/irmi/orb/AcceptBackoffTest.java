package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * A server out of file descriptors with no connection it may shed: its accepts fail while
 * connections wait in the backlog, and every connection it holds was served within
 * {@code shed_idle_after_ms} (each flood connection sends a whole request first). It must not spin
 * (the listening socket stays ready, so retrying at once would take a core and, with a log line per
 * try, flood the log), must keep serving the connections it has, and must accept again once
 * descriptors are free. The server runs in a JVM of its own with {@code ulimit -n 256}. (Where it
 * may shed, it sheds instead: {@code ConnectionLimitSheddingTest}.)
 */
class AcceptBackoffTest {

    @Test
    void shouldBackOffWithoutSpinningAndAcceptAgainWhenDescriptorsAreFree() throws Exception {
        ORB client = null;
        List<Socket> flood = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start("irmi", 256, "-Xmx128m", "-Dirmi.transport.shed_idle_after_ms=600000")) {
            try {
                String ior = server.ior();
                client = Orbs.irmi("jacorb.connection.client.pending_reply_timeout", "20000");
                Echo echo = EchoHelper.narrow(client.string_to_object(ior));
                assertThat(echo.echoString("before")).isEqualTo("before");
                byte[] ping = GiopClient.request12(1, GiopClient.objectKey(echo), "ping", new byte[0], false);
                for (int i = 0; i < 400; i++) { // more than the server's 256 descriptors: the rest wait in the backlog
                    Socket s = new Socket();
                    s.connect(new InetSocketAddress("127.0.0.1", server.port), 5000);
                    s.getOutputStream().write(ping); // a whole message: not shed as a stalled newcomer
                    flood.add(s);
                }
                long failures = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (failures == 0 && System.nanoTime() < deadline) {
                    failures = server.stats().getOrDefault("acceptFailures", 0L);
                }
                assertThat(failures).as("accepts failed for lack of descriptors; output:\n" + server.output()).isPositive();
                long cpuBefore = cpuTicks(server.process.pid());
                int logLinesBefore = countAcceptLines(server.output());
                Thread.sleep(3_000);
                long cpuTicks = cpuTicks(server.process.pid()) - cpuBefore;
                int logLines = countAcceptLines(server.output()) - logLinesBefore;
                assertThat(echo.echoString("during")).as("an open connection keeps being served").isEqualTo("during");
                // A spinning selector takes a whole core: about 300 ticks in 3 s. Backing off, it retries ten times a second.
                assertThat(cpuTicks).as("server CPU in 3 s out of descriptors, in clock ticks (1/100 s)").isLessThan(100);
                assertThat(logLines).as("'accept failed' lines in 3 s (rate-limited)").isLessThanOrEqualTo(4);
                Map<String, Long> stats = server.stats();
                assertThat(stats.get("shedNeverCompleted") + stats.get("shedStalled") + stats.get("shedIdle"))
                        .as("nothing to shed: every connection was served just now; " + stats).isZero();
                for (Socket s : flood) {
                    s.close();
                }
                flood.clear();
                ORB fresh = Orbs.irmi("jacorb.connection.client.pending_reply_timeout", "20000");
                try {
                    Echo again = EchoHelper.narrow(fresh.string_to_object(ior));
                    assertThat(again.echoString("after")).as("a new connection once descriptors are free").isEqualTo("after");
                } finally {
                    Orbs.destroy(fresh);
                }
                assertThat(server.alive()).isTrue();
            } finally {
                for (Socket s : flood) {
                    s.close();
                }
                if (client != null) {
                    Orbs.destroy(client);
                }
            }
        }
    }

    private static int countAcceptLines(String output) {
        return (int) output.lines().filter(l -> l.contains("accept failed")).count();
    }

    /** utime + stime of a process, in clock ticks, from /proc. */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of stat(5)
    }
}
