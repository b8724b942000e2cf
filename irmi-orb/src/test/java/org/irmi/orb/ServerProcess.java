package org.irmi.orb;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link HostileServerMain} echo server in a JVM of its own, for tests and benchmarks that
 * attack a server without risking their own JVM: its output collected line by line, its
 * {@code IOR} and {@code STATS} lines read, and its end on {@link #close}.
 */
final class ServerProcess implements AutoCloseable {

    final Process process;
    final int port;
    private final StringBuffer output = new StringBuffer();
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final PrintStream toChild;

    private ServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
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
        this.toChild = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /**
     * Starts {@code kind} ({@code irmi} or {@code stock}) on a free port.
     *
     * @param fileLimit {@code ulimit -n} for the server, or 0 to leave it
     * @param jvmOptions heap and other JVM options
     */
    static ServerProcess start(String kind, int fileLimit, String... jvmOptions) throws IOException {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<String> command = new ArrayList<>();
        if (fileLimit > 0) {
            command.addAll(List.of("/bin/sh", "-c", "ulimit -n " + fileLimit + " && exec \"$0\" \"$@\""));
        }
        command.add(java.toString());
        // the log levels first: a later -D of the same name (in jvmOptions) wins
        command.addAll(List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.log.org.jacorb=error"));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", cp, HostileServerMain.class.getName(), kind, String.valueOf(port)));
        return new ServerProcess(new ProcessBuilder(command).redirectErrorStream(true).start(), port);
    }

    /** The server's IOR (waits for its {@code IOR} line). */
    String ior() throws InterruptedException {
        return await("IOR ").substring(4);
    }

    /** The IOR of the server's RMI-IIOP echo object (waits for its {@code RMI} line). */
    String rmiIor() throws InterruptedException {
        return await("RMI ").substring(4);
    }

    /** Resets the server's heap peak (after a full GC); returns when it is done. */
    void resetPeak() throws InterruptedException {
        toChild.println("resetpeak");
        await("RESET");
    }

    /** The server's transport figures now ({@code STATS} line: maxHeap, held, limit, pauses, ...). */
    Map<String, Long> stats() throws InterruptedException {
        toChild.println("stats");
        Map<String, Long> m = new LinkedHashMap<>();
        for (String kv : await("STATS ").substring(6).trim().split(" ")) {
            String[] p = kv.split("=");
            if (m.put(p[0], Long.parseLong(p[1])) != null) {
                throw new IllegalStateException("STATS names " + p[0] + " twice: " + m);
            }
        }
        return m;
    }

    /** Sends one command line to the server (e.g. {@code trace <phase>}). */
    void command(String line) {
        toChild.println(line);
    }

    /** Everything the server printed so far. */
    String output() {
        return output.toString();
    }

    boolean alive() {
        return process.isAlive();
    }

    private String await(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(1, TimeUnit.SECONDS);
            if (l != null && l.startsWith(prefix)) {
                return l;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' from the server JVM; output:\n" + output);
    }

    /** Asks the server to end, and ends it after 20 s if it has not. */
    @Override
    public void close() throws InterruptedException {
        toChild.println("quit");
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
