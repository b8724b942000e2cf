package org.irmi.bench.experiments.internal.crosstalk;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.irmi.bench.daytrader.ChildJvm;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.internal.JitQuiet;

/**
 * The crosstalk experiment's warm-up of each condition: how long the large stream warms up, the
 * wait for the JIT compilers of the server and the large client to go quiet ({@link JitQuiet}),
 * what the server still compiled while the large requests were measured, and the report of all
 * that for one run.
 *
 * <p>THREADING: one run's thread.
 */
final class CrosstalkWarmup {

    /** The JIT warm-up gate: over this window ... */
    static final long JIT_QUIET_WINDOW_MILLIS = 2_000;
    /** ... each process compiled at most this long (5% of a CPU). */
    static final long JIT_QUIET_MAX_MILLIS = 100;
    /** The longest warm-up of one condition; a condition measured with the JIT still busy is counted in the report. */
    static long maxWarmupMillis(org.irmi.bench.experiments.RunLength length) {
        // On the link the reader waits for the network, not for the CPU: a compiler still at work
        // takes little from what is measured, so the wait for a quiet JIT is cut shorter there.
        boolean loopback = CrosstalkExperiment.LINK_RATE.equals("loopback");
        return Long.getLong("irmi.crosstalk.maxWarmupMillis", switch (length) {
            case TINY, QUICK -> loopback ? 10_000 : 4_000;
            case FULL -> loopback ? 20_000 : 8_000;
        });
    }

    /** How each condition's warm-up ended, one per trial. */
    private final Map<CrosstalkExperiment.Case, List<Warmup>> warmups = new LinkedHashMap<>();
    /** The server's JIT milliseconds while the large requests were measured, one figure per trial. */
    private final Map<CrosstalkExperiment.Case, List<Long>> measuredJit = new LinkedHashMap<>();

    /**
     * Waits for {@code c}'s warm-up to end ({@link #awaitQuietJit}) and records how it ended.
     *
     * @return how it ended
     */
    Warmup await(CrosstalkExperiment.Case c, ChildJvm server, ChildJvm large, long minMillis, long maxMillis)
            throws InterruptedException {
        Warmup warm = awaitQuietJit(server, large, minMillis, maxMillis);
        warmups.computeIfAbsent(c, k -> new ArrayList<>()).add(warm);
        return warm;
    }

    /** Records what the server compiled while {@code c}'s large requests were measured ({@code serverJitMillis} its total then). */
    void measured(CrosstalkExperiment.Case c, Warmup warm, long serverJitMillis) {
        if (serverJitMillis >= 0 && warm.serverJitMillis() >= 0) {
            measuredJit.computeIfAbsent(c, k -> new ArrayList<>()).add(serverJitMillis - warm.serverJitMillis());
        }
    }

    /** Says how long the warm-ups took, how many ended with the JIT still busy, and what it compiled while measuring. */
    void report(ExperimentResult result, long minWarmupMillis, long maxWarmupMillis) {
        List<Long> millis = warmups.values().stream().flatMap(List::stream).map(Warmup::millis).sorted().toList();
        if (millis.isEmpty()) {
            return;
        }
        long busy = warmups.values().stream().flatMap(List::stream).filter(w -> !w.quiet()).count();
        List<Long> jit = measuredJit.values().stream().flatMap(List::stream).sorted().toList();
        result.figure("warmup.medianMillis", millis.get(millis.size() / 2));
        result.figure("warmup.busyConditions", busy);
        result.note(String.format("Warm-up: each condition warmed up until the JIT compilers of the server and of the large client"
                + " had spent at most %d ms each compiling over the last %d ms (at least %.1f s, at most %.0f s): median %.1f s"
                + " (%.1f to %.1f s) over %d conditions; %d measured with the JIT still busy at the limit. While the large"
                + " requests were measured, the server compiled for %s ms (median, range over conditions)."
                + " Without this gate (a fixed 2 s warm-up) the server's C2 compiler took 40%% of the server's CPU"
                + " during the measurement with 8 streams on a 2-core machine, inflating both ORBs' loaded times.",
                JIT_QUIET_MAX_MILLIS, JIT_QUIET_WINDOW_MILLIS, minWarmupMillis / 1000.0, maxWarmupMillis / 1000.0,
                millis.get(millis.size() / 2) / 1000.0, millis.get(0) / 1000.0, millis.get(millis.size() - 1) / 1000.0,
                millis.size(), busy, jit.isEmpty() ? "-" : jit.get(jit.size() / 2) + " (" + jit.get(0) + " to " + jit.get(jit.size() - 1) + ")"));
    }

    /** How one condition's warm-up ended: after how long, whether the JIT had gone quiet, the server's JIT time then. */
    record Warmup(long millis, boolean quiet, long serverJitMillis) {
    }

    /**
     * Waits, while the large client warms up, until the JIT compilers of the server and of the large
     * client have gone quiet ({@link JitQuiet}: at most {@link #JIT_QUIET_MAX_MILLIS} compiled per
     * process over the last {@link #JIT_QUIET_WINDOW_MILLIS}), and at least {@code minMillis}; at most
     * {@code maxMillis}, after which the condition is measured anyway and the report counts it.
     */
    private static Warmup awaitQuietJit(ChildJvm server, ChildJvm large, long minMillis, long maxMillis)
            throws InterruptedException {
        JitQuiet gate = new JitQuiet(JIT_QUIET_WINDOW_MILLIS, JIT_QUIET_MAX_MILLIS);
        long start = System.nanoTime();
        while (true) {
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            long serverJit = lastCell(server.linesWith("STAT"), 4);
            long clientJit = lastCell(large.linesWith("WARM"), 1);
            if (serverJit != Long.MIN_VALUE && clientJit != Long.MIN_VALUE) {
                gate.sample(elapsed, serverJit, clientJit);
            }
            boolean quiet = gate.quiet();
            if ((quiet && elapsed >= minMillis) || elapsed >= maxMillis || !large.alive()) {
                return new Warmup(elapsed, quiet, serverJit == Long.MIN_VALUE ? -1 : serverJit);
            }
            Thread.sleep(250);
        }
    }

    /** @return the {@code index}th space-separated number (from 0, after the prefix) of the last line, or Long.MIN_VALUE when there is none */
    private static long lastCell(List<String> lines, int index) {
        if (lines.isEmpty()) {
            return Long.MIN_VALUE;
        }
        String[] cells = lines.get(lines.size() - 1).split(" ");
        return cells.length > index ? Long.parseLong(cells[index]) : Long.MIN_VALUE;
    }

    /**
     * The least warm-up time of the large stream (with the secondary streams already running). In
     * a profile of a whole loaded run of about 3 s with two warm-up rounds, the server's JIT
     * compiler threads took 46% of its CPU samples, more than its reader thread: a run that short
     * can measure requests that race the compilers for the server's one CPU, on either ORB.
     */
    static long warmupMillis(org.irmi.bench.experiments.RunLength length) {
        return switch (length) {
            case TINY, QUICK -> 2_000;
            case FULL -> 3_000;
        };
    }
}
