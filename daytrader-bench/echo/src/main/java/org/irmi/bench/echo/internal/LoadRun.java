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

    /** How long the client may take to open all its connections. */
    public static final Duration RAMP_TIMEOUT = Duration.ofSeconds(30);
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
     */
    public record Trial(LoadResult result, int serverThreads, long serverRssKb, int serverConnections,
                        int readerThreads, long heapAfterGcKb) {
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
        List<String> cmd = new ArrayList<>(List.of(client.toString(), "-ior-file", iorFile.toString(),
                "-connections", Integer.toString(connections), "-payload", Integer.toString(payloadBytes),
                "-warmup-ms", Long.toString(warmup.toMillis()), "-duration-ms", Long.toString(measure.toMillis()),
                "-ramp-timeout-ms", Long.toString(RAMP_TIMEOUT.toMillis())));
        cmd.addAll(orbArgs);
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + client + ": " + e.getMessage(), e);
        }
        CompletableFuture<String> out = Processes.drain(p.getInputStream());
        long deadline = System.nanoTime() + RAMP_TIMEOUT.plus(warmup).plus(measure).plusSeconds(45).toNanos();
        int threads = 0;
        long rssKb = 0;
        int conns = 0;
        int readers = -1;
        long heapKb = -1;
        int samples = 0;
        try {
            while (!p.waitFor(SAMPLE_EVERY_MILLIS, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() > deadline) {
                    p.destroyForcibly();
                    throw new IllegalStateException("load client ran out of time; output so far:\n" + out.getNow(""));
                }
                if (serverPid > 0) {
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
            }
            String output = out.get(10, TimeUnit.SECONDS);
            if (p.exitValue() != 0) {
                throw new IllegalStateException("load client failed (exit " + p.exitValue() + "):\n" + output);
            }
            return new Trial(LoadResult.parse(output), threads, rssKb, conns, readers, heapKb);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot read the load client's output", e);
        }
    }
}
