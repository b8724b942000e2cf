package org.irmi.bench.echo.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the omniORB load client once against a server in another process, and watches that
 * server's threads, resident memory and established connections while the client runs.
 */
public final class LoadRun {

    /** How long the client may take to open all its connections, at least. */
    public static final Duration RAMP_TIMEOUT = Duration.ofSeconds(30);
    /**
     * More ramp time per connection. At 10,000 connections the servers' listen queues overflow
     * (stock JacORB's backlog is 50) and dropped connects wait for SYN retransmission: opening
     * 10,000 took the omniORB server 74 s on the two-core machine.
     */
    public static final Duration RAMP_PER_CONNECTION = Duration.ofMillis(20);
    private static final long SAMPLE_EVERY_MILLIS = 200;

    /**
     * One trial: the client's figures and the server's peaks while it ran.
     *
     * @param result              the client's figures
     * @param serverThreads       the most threads the server had
     * @param serverRssKb         the largest resident set of the server, KiB
     * @param serverConnections   the most established connections on the server's port
     * @param readerThreads       the most connection reader threads the server had (-1 if not watched)
     * @param heapAfterGcKb       the most heap the server held after a garbage collection, KiB (-1 if not known)
     * @param serverCpuNanos      CPU time the server used between the client's measurement marks, ns
     *                            (-1 if not watched)
     * @param clientCpuNanos      CPU time the load client used between the same marks, ns (-1 if not watched)
     * @param machineIdle         the fraction of the machine's CPU time that was idle between the same marks,
     *                            all CPUs together (-1 if not watched)
     */
    public record Trial(LoadResult result, int serverThreads, long serverRssKb, int serverConnections,
                        int readerThreads, long heapAfterGcKb, long serverCpuNanos, long clientCpuNanos,
                        double machineIdle) {

        /** A trial whose client CPU time and machine idle time were not watched. */
        public Trial(LoadResult result, int serverThreads, long serverRssKb, int serverConnections,
                     int readerThreads, long heapAfterGcKb, long serverCpuNanos) {
            this(result, serverThreads, serverRssKb, serverConnections, readerThreads, heapAfterGcKb, serverCpuNanos, -1, -1);
        }

        /** A trial whose CPU times were not watched. */
        public Trial(LoadResult result, int serverThreads, long serverRssKb, int serverConnections,
                     int readerThreads, long heapAfterGcKb) {
            this(result, serverThreads, serverRssKb, serverConnections, readerThreads, heapAfterGcKb, -1);
        }

        /** Server CPU time per measured call, microseconds; -1 when unknown. */
        public double serverCpuMicrosPerCall() {
            return perCall(serverCpuNanos);
        }

        /** The load client's CPU time per measured call, microseconds; -1 when unknown. */
        public double clientCpuMicrosPerCall() {
            return perCall(clientCpuNanos);
        }

        private double perCall(long nanos) {
            return nanos < 0 || result.calls() <= 0 ? -1 : nanos / 1e3 / result.calls();
        }
    }

    private LoadRun() {
    }

    /**
     * Runs one trial.
     *
     * @param client       the load client program
     * @param iorFile      the server's IOR file
     * @param serverPid    the server process, watched through /proc (or -1 to not watch)
     * @param serverPort   the server's port, for counting its connections
     * @param connections  concurrent callers, each on its own connection
     * @param payloadBytes request and reply size
     * @param warmup       not recorded
     * @param measure      recorded
     * @param orbArgs      more -ORB options for the client
     * @throws IllegalStateException when the client fails or runs out of time, with its output
     */
    public static Trial run(Path client, Path iorFile, long serverPid, int serverPort, int connections,
                            int payloadBytes, Duration warmup, Duration measure, List<String> orbArgs) {
        return run(client, iorFile, serverPid, serverPort, null, connections, payloadBytes, warmup, measure, orbArgs);
    }

    /** As above, also watching the heap figures the server keeps in {@code serverStatsFile} (may be null). */
    public static Trial run(Path client, Path iorFile, long serverPid, int serverPort, Path serverStatsFile,
                            int connections, int payloadBytes, Duration warmup, Duration measure,
                            List<String> orbArgs) {
        return run(List.of(client.toString()), iorFile, serverPid, serverPort, serverStatsFile, connections, payloadBytes,
                warmup, measure, orbArgs);
    }

    /**
     * As above, with the load client given as a command: the omniORB C++ client's path, or a JVM running
     * {@code NioLoadClient}. Either takes the same options and prints the same lines.
     */
    public static Trial run(List<String> client, Path iorFile, long serverPid, int serverPort, Path serverStatsFile,
                            int connections, int payloadBytes, Duration warmup, Duration measure,
                            List<String> orbArgs) {
        List<String> cmd = new ArrayList<>(client);
        cmd.addAll(List.of("-ior-file", iorFile.toString(),
                "-connections", Integer.toString(connections), "-payload", Integer.toString(payloadBytes),
                "-warmup-ms", Long.toString(warmup.toMillis()), "-duration-ms", Long.toString(measure.toMillis()),
                "-ramp-timeout-ms", Long.toString(rampTimeout(connections).toMillis()), "-hold-until-eof"));
        cmd.addAll(orbArgs);
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + client + ": " + e.getMessage(), e);
        }
        // The client prints its figures, then keeps its connections open until its stdin ends: the
        // last sample, taken in that pause, sees every connection it still has, however late the
        // periodic samples ran on a busy machine.
        CompletableFuture<Void> reported = new CompletableFuture<>();
        // {server start, server end, client start, client end}, and the machine's {total, idle} ticks at each mark
        long[] cpuMarks = {-1, -1, -1, -1};
        long[][] machineMarks = new long[2][];
        long clientPid = p.pid();
        CompletableFuture<String> out = drainLines(p.getInputStream(), reported, line -> {
            int mark = line.equals("ECHO-MEASURE start") ? 0 : line.equals("ECHO-MEASURE end") ? 1 : -1;
            if (serverPid > 0 && mark >= 0) {
                cpuMarks[mark] = ProcessSample.cpuNanos(serverPid);
                cpuMarks[2 + mark] = ProcessSample.cpuNanos(clientPid);
                machineMarks[mark] = ProcessSample.machineTicks();
            }
        });
        long deadline = System.nanoTime() + rampTimeout(connections).plus(warmup).plus(measure).plusSeconds(45).toNanos();
        int threads = 0;
        long rssKb = 0;
        int conns = 0;
        int readers = -1;
        long heapKb = -1;
        int samples = 0;
        try {
            boolean released = false;
            while (!p.waitFor(released ? SAMPLE_EVERY_MILLIS : 0, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() > deadline) {
                    p.destroyForcibly();
                    throw new IllegalStateException("load client ran out of time; output so far:\n" + out.getNow(""));
                }
                boolean last = !released && reported.isDone();
                if (!last && !released) {
                    try {
                        reported.get(SAMPLE_EVERY_MILLIS, TimeUnit.MILLISECONDS);
                        last = true;
                    } catch (java.util.concurrent.TimeoutException e) {
                        // still running: take a periodic sample
                    }
                }
                if (serverPid > 0 && !released) {
                    ProcessSample s = ProcessSample.of(serverPid);
                    threads = Math.max(threads, s.threads());
                    rssKb = Math.max(rssKb, s.rssKb());
                    conns = Math.max(conns, ProcessSample.establishedConnections(serverPort));
                    // Reading every thread's name costs a file per thread: once a second is enough.
                    if (samples++ % 5 == 2) {
                        readers = Math.max(readers, ProcessSample.readerThreads(serverPid));
                    }
                    if (serverStatsFile != null) {
                        heapKb = Math.max(heapKb, HeapStats.read(serverStatsFile));
                    }
                }
                if (last) {
                    release(p);
                    released = true;
                }
            }
            String output = out.get(10, TimeUnit.SECONDS);
            if (p.exitValue() != 0) {
                throw new IllegalStateException("load client failed (exit " + p.exitValue() + "):\n" + output);
            }
            // Written by the output thread before it completed {@code out}: visible here.
            long cpu = cpuMarks[0] >= 0 && cpuMarks[1] >= 0 ? cpuMarks[1] - cpuMarks[0] : -1;
            long clientCpu = cpuMarks[2] >= 0 && cpuMarks[3] >= 0 ? cpuMarks[3] - cpuMarks[2] : -1;
            double idle = -1;
            if (machineMarks[0] != null && machineMarks[1] != null && machineMarks[1][0] > machineMarks[0][0]) {
                idle = (double) (machineMarks[1][1] - machineMarks[0][1]) / (machineMarks[1][0] - machineMarks[0][0]);
            }
            return new Trial(LoadResult.parse(output), threads, rssKb, conns, readers, heapKb, cpu, clientCpu, idle);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot read the load client's output", e);
        } finally {
            release(p);
        }
    }

    /** The ramp time {@code connections} get: {@link #RAMP_TIMEOUT}, or 20 ms per connection when more (200 s at 10,000). */
    public static Duration rampTimeout(int connections) {
        Duration scaled = RAMP_PER_CONNECTION.multipliedBy(connections);
        return scaled.compareTo(RAMP_TIMEOUT) > 0 ? scaled : RAMP_TIMEOUT;
    }

    /** Ends the client's stdin, which lets it close its connections and exit. */
    private static void release(Process p) {
        try {
            p.getOutputStream().close();
        } catch (IOException e) {
            // it has exited already
        }
    }

    /**
     * Reads the client's output to its end on a daemon thread, completing {@code reported} once the
     * last figure line ({@code ECHO-HIST}) or the end of the output has arrived.
     */
    private static CompletableFuture<String> drainLines(java.io.InputStream in, CompletableFuture<Void> reported,
                                                        java.util.function.Consumer<String> onLine) {
        CompletableFuture<String> all = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            StringBuilder text = new StringBuilder();
            try (var reader = new java.io.BufferedReader(
                    new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    text.append(line).append('\n');
                    onLine.accept(line);
                    if (line.startsWith("ECHO-HIST")) {
                        reported.complete(null);
                    }
                }
                all.complete(text.toString());
            } catch (IOException e) {
                all.completeExceptionally(new java.io.UncheckedIOException(e));
            } finally {
                reported.complete(null);
            }
        }, "load-client-output");
        t.setDaemon(true);
        t.start();
        return all;
    }
}
