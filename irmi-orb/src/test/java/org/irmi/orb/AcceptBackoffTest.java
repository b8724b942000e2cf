package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * A server out of file descriptors: its accepts fail while connections wait in the backlog. It
 * must not spin (the listening socket stays ready, so retrying at once would take a core and, with
 * a log line per try, flood the log), must keep serving the connections it has, and must accept
 * again once descriptors are free. The server runs in a JVM of its own with {@code ulimit -n 256}.
 */
class AcceptBackoffTest {

    @Test
    void shouldBackOffWithoutSpinningAndAcceptAgainWhenDescriptorsAreFree() throws Exception {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String command = "ulimit -n 256 && exec \"$0\" \"$@\"";
        Process child = new ProcessBuilder("/bin/sh", "-c", command, java.toString(), "-Xmx128m",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.log.org.jacorb=error",
                "-cp", cp, HostileServerMain.class.getName(), "irmi", String.valueOf(port)).redirectErrorStream(true).start();
        StringBuffer output = new StringBuffer();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                    output.append(l).append('\n');
                    lines.add(l);
                }
            } catch (IOException ignored) {
                // the child ended
            }
        }, "child-output");
        pump.setDaemon(true);
        pump.start();
        PrintStream toChild = new PrintStream(child.getOutputStream(), true, StandardCharsets.UTF_8);
        ORB client = null;
        List<Socket> flood = new ArrayList<>();
        try {
            String ior = await(lines, "IOR ", output).substring(4);
            client = Orbs.irmi("jacorb.connection.client.pending_reply_timeout", "20000");
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));
            assertThat(echo.echoString("before")).isEqualTo("before");
            for (int i = 0; i < 400; i++) { // more than the server's 256 descriptors: the rest wait in the backlog
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                flood.add(s);
            }
            long failures = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (failures == 0 && System.nanoTime() < deadline) {
                failures = stat(toChild, lines, output, "acceptFailures");
            }
            assertThat(failures).as("accepts failed for lack of descriptors; output:\n" + output).isPositive();
            long cpuBefore = cpuTicks(child.pid());
            int logLinesBefore = countAcceptLines(output);
            Thread.sleep(3_000);
            long cpuTicks = cpuTicks(child.pid()) - cpuBefore;
            int logLines = countAcceptLines(output) - logLinesBefore;
            assertThat(echo.echoString("during")).as("an open connection keeps being served").isEqualTo("during");
            // A spinning selector takes a whole core: about 300 ticks in 3 s. Backing off, it retries ten times a second.
            assertThat(cpuTicks).as("server CPU in 3 s out of descriptors, in clock ticks (1/100 s)").isLessThan(100);
            assertThat(logLines).as("'accept failed' lines in 3 s (rate-limited)").isLessThanOrEqualTo(4);
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
            assertThat(child.isAlive()).isTrue();
        } finally {
            for (Socket s : flood) {
                s.close();
            }
            if (client != null) {
                Orbs.destroy(client);
            }
            toChild.println("quit");
            if (!child.waitFor(20, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    private static int countAcceptLines(StringBuffer output) {
        return (int) output.toString().lines().filter(l -> l.contains("accept failed")).count();
    }

    /** utime + stime of a process, in clock ticks, from /proc. */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of stat(5)
    }

    private static long stat(PrintStream toChild, LinkedBlockingQueue<String> lines, StringBuffer output, String key)
            throws InterruptedException {
        toChild.println("stats");
        for (String kv : await(lines, "STATS ", output).substring(6).split(" ")) {
            String[] p = kv.split("=");
            if (p[0].equals(key)) {
                return Long.parseLong(p[1]);
            }
        }
        throw new AssertionError("no " + key + " in the server's STATS line");
    }

    private static String await(LinkedBlockingQueue<String> lines, String prefix, StringBuffer output)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(1, TimeUnit.SECONDS);
            if (l != null && l.startsWith(prefix)) {
                return l;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' from the server JVM; output:\n" + output);
    }
}
