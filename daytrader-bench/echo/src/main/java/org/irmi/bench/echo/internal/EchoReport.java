package org.irmi.bench.echo.internal;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.irmi.bench.echo.OrbVariant;

/**
 * Renders the echo benchmark's results as Markdown: the command, the machine, the method, the
 * medians, the ratios of every variant to the first one (the baseline, stock JacORB), and the
 * issue's targets checked against the figures.
 */
public final class EchoReport {

    /** Calls/s ratio at and above which a variant counts as clearly ahead. */
    public static final double CLEARLY_AHEAD = 1.2;

    private final String command;
    private final BenchmarkOptions options;
    private final Instant started;
    private final Instant finished;
    private final String loadBefore;
    private final String loadAfter;
    private final long openFiles;
    private final List<OrbVariant> variants;
    private final Map<String, ProcessSample> idle;
    private final Map<String, Long> idleHeapKb;
    private final List<CellSummary> cells;
    private final List<String> notes;
    private final List<String> trialLines;

    /**
     * @param idle        per variant, the server's threads and RSS after its warm-up
     * @param idleHeapKb  per variant, the server's live heap after its warm-up (-1 when unknown)
     * @param cells       every variant's summary in every cell, in report order
     * @param notes       what was skipped or failed, for the Notes section
     * @param trialLines  one line per trial, for the appendix
     */
    public EchoReport(String command, BenchmarkOptions options, Instant started, Instant finished, String loadBefore,
                      String loadAfter, long openFiles, List<OrbVariant> variants, Map<String, ProcessSample> idle,
                      Map<String, Long> idleHeapKb, List<CellSummary> cells, List<String> notes, List<String> trialLines) {
        this.command = command;
        this.options = options;
        this.started = started;
        this.finished = finished;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.openFiles = openFiles;
        this.variants = variants;
        this.idle = idle;
        this.idleHeapKb = idleHeapKb;
        this.cells = cells;
        this.notes = notes;
        this.trialLines = trialLines;
    }

    /** The whole report. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Echo benchmark: stock JacORB against I-RMI\n\n");
        sb.append("Produced by `").append(command).append("` on ")
                .append(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(started.atOffset(ZoneOffset.UTC).withNano(0)))
                .append(" UTC, in ").append((finished.getEpochSecond() - started.getEpochSecond())).append(" s")
                .append(options.quick() ? " (quick run: fewer and shorter trials; see docs/benchmarks/echo.md for the full run)" : "")
                .append(".\n");
        sb.append("Without the launcher (after `mvn -B -q -pl daytrader-bench/echo package -DskipTests`): `java -cp"
                + " daytrader-bench/echo/target/classes:$(cat daytrader-bench/echo/target/classpath.txt)"
                + " org.irmi.bench.echo.EchoBenchmark").append(command.substring("./irmi echo-bench".length())).append("`.\n\n");
        sb.append("## Machine\n\n");
        sb.append("- CPU: ").append(MachineFacts.cpuModel()).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores; memory ")
                .append(MachineFacts.memTotalMb()).append(" MiB; Linux ").append(MachineFacts.kernel()).append('\n');
        sb.append("- ").append(MachineFacts.java()).append("; JacORB ").append(MachineFacts.jacorbVersion())
                .append("; omniORB ").append(MachineFacts.omniOrbVersion())
                .append(omniOrbRole(variants.stream().anyMatch(v -> !v.isJvm()), options.client())).append('\n');
        sb.append("- open-files limit (ulimit -n): ").append(openFiles == Long.MAX_VALUE ? "unlimited" : openFiles)
                .append(" (1,000 connections need about 1,256 on each side)\n");
        sb.append("- load average before: ").append(loadBefore).append(", after: ").append(loadAfter)
                .append(". The machine is shared (other builds may run); client and server share its cores.\n\n");

        sb.append("## Method\n\n");
        sb.append("- Each variant's echo server runs in its own process for the whole run; all are started at once"
                + " and measured in turns. Java variants: `org.irmi.bench.echo.EchoServer` in a JVM (")
                .append(String.join(" ", ServerProcess.JVM_OPTIONS)).append(").");
        if (variants.stream().anyMatch(v -> !v.isJvm())) {
            sb.append(" omniORB variants: the C++ server `echo_server` (`echo_server.cc`, g++ -O2, the variant's properties as"
                    + " `-ORB<key> <value>`; it raises its open-files soft limit to the hard limit). It has no Java heap and"
                    + " no reader threads of JacORB's kind, so those columns show `-` for it.");
        }
        sb.append('\n');
        switch (options.client()) {
            case NIO -> sb.append("- Load: `NioLoadClient`, a closed-loop client in a JVM of its own (-Xmx512m, Parallel GC) that holds"
                    + " all N connections on one thread (a selector, GIOP 1.2 spoken directly, no ORB) and calls `echoBytes`"
                    + " again on each connection as soon as its reply arrives. A trial opens the N connections (ramp), warms up ")
                    .append(options.warmup().toMillis()).append(" ms, then records every call's latency (in microseconds) for ")
                    .append(options.measure().toMillis()).append(" ms into HdrHistogram; the calls go on without a pause from"
                            + " the warm-up into the measurement.\n");
            case EPOLL -> sb.append("- Load: `echo_epoll_client` (`echo_epoll_client.cc`, g++ -O2, no ORB), a closed-loop client"
                    + " that holds all N connections on one thread (epoll, non-blocking sockets, GIOP 1.2 spoken directly) and"
                    + " calls `echoBytes` again on each connection as soon as its reply arrives: a read and a write per call."
                    + " A trial opens the N connections (ramp), warms up ")
                    .append(options.warmup().toMillis()).append(" ms, then records every call's latency (in nanoseconds, 3"
                            + " significant digits) for ").append(options.measure().toMillis()).append(" ms, read into"
                            + " HdrHistogram; the calls go on without a pause from the warm-up into the measurement.\n");
            case OMNIORB -> sb.append("- Load: the omniORB C++ closed-loop client (`echo_load_client`, `-ORBmaxGIOPConnectionPerServer N`):"
                    + " N threads, each on its own connection, call `echoBytes` back to back. A trial opens the N connections"
                    + " (ramp), warms up ").append(options.warmup().toMillis()).append(" ms, then records every call's latency for ")
                    .append(options.measure().toMillis()).append(" ms in a log-linear histogram (under 0.8% error), read into HdrHistogram.\n");
        }
        sb.append("- ").append(options.trials()).append(" trials per variant and cell; the variants take turns and the order flips"
                + " every round. Figures are medians over the trials. Each server was first warmed up with 16 connections for ")
                .append(options.serverWarmup().toMillis()).append(" ms (100 B) and a third of that (64 KB).\n");
        sb.append("- Server threads and RSS: the peaks of `Threads` and `VmRSS` in `/proc/<pid>/status` during a trial"
                + " (median over trials). Reader threads: threads named `ServerMessageReceptor*` (JacORB, one per connection)"
                + " or `irmi-selector` (I-RMI), from `/proc/<pid>/task/*/comm`; `-` for the omniORB server, whose pool threads both"
                + " read and run calls. Live heap: the most heap in use right after a"
                + " garbage collection during the trial, which the server reports from its GC MXBeans. Conns seen: the fewest established connections"
                + " on the server's port that any trial reached. Errors: calls that raised (30 s call timeout), wrong echoes,"
                + " and callers still without a reply 10 s after the end, summed over the trials. Server CPU us/call: utime + stime of the server"
                + " (`/proc/<pid>/stat`) between the load client's measurement marks over the calls measured, median over the"
                + " trials; its section below adds the spread and the ratios.\n");
        sb.append("- Variants (the first is the baseline of the ratios):\n");
        for (OrbVariant v : variants) {
            sb.append("  - `").append(v.name()).append("`: ").append(v.description()).append(". Properties: `")
                    .append(new java.util.TreeMap<>(v.orbProperties())).append("`\n");
        }
        sb.append("- More variants are ORB properties on top of a base variant, measured in the same run, e.g."
                + " `./irmi echo-bench --variant irmi-mon=irmi,key=value`.\n");
        sb.append('\n');
        sb.append(renderTables());
        sb.append(renderPerConnection());
        sb.append(renderTargets());
        sb.append("## Caveats\n\n");
        sb.append("- Client and server share the machine's cores, so a server that spends less CPU per call leaves more to the"
                + " client; every variant gets the same client.\n");
        sb.append("- Other work ran on the machine at the same time (see the load averages). Trials alternate between the"
                + " variants so the noise falls on all of them, and medians damp it, but on this machine differences of"
                + " about 10% or less are within the noise: compare the trials below.\n");
        sb.append("- Stock JacORB's accept backlog is 50, so opening 1,000 connections at once takes it seconds (ramp column)."
                + " The ramp is not part of the measured interval.\n");
        sb.append("- JacORB keeps up to 5 idle reader threads after connections close, so it shows reader threads above the"
                + " connection count when few connections are open.\n\n");
        if (!notes.isEmpty()) {
            sb.append("## Notes\n\n");
            notes.forEach(n -> sb.append("- ").append(n).append('\n'));
            sb.append('\n');
        }
        sb.append("<details><summary>Every trial</summary>\n\n```\n");
        trialLines.forEach(l -> sb.append(l).append('\n'));
        sb.append("```\n\n</details>\n");
        return sb.toString();
    }

    /** The results table and the ratios table. */
    public String renderTables() {
        StringBuilder sb = new StringBuilder("## Results (medians)\n\n");
        sb.append("| payload | conns | variant | calls/s | server CPU us/call | trials' calls/s (min-max) | p50 ms | p99 ms | server threads | reader threads | server RSS MB | live heap MB | conns seen | errors | ramp ms |\n");
        sb.append("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CellSummary c : cells) {
            if (!c.measured()) {
                sb.append(String.format(Locale.ROOT, "| %s | %,d | %s | failed: %s | | | | | | | | | | | |%n", size(c.payloadBytes()),
                        c.connections(), c.variant(), c.lastFailure()));
                continue;
            }
            sb.append(String.format(Locale.ROOT, "| %s | %,d | %s | %,.0f | %s | %,.0f-%,.0f | %.3f | %.3f | %.0f | %s | %.0f | %s | %,d | %d | %.0f |%n",
                    size(c.payloadBytes()), c.connections(), c.variant() + (c.failures() > 0 ? " (" + c.failures() + " trials failed)" : ""),
                    c.callsPerSecond(), c.serverCpuMicrosPerCall() < 0 ? "?"
                            : String.format(Locale.ROOT, "%.2f", c.serverCpuMicrosPerCall()), c.callsPerSecondMin(), c.callsPerSecondMax(), c.p50Micros() / 1e3,
                    c.p99Micros() / 1e3, c.serverThreads(), !isJvm(c.variant()) ? "-" : c.readerThreads() < 0 ? "?" : String.format(Locale.ROOT, "%.0f", c.readerThreads()), c.serverRssKb() / 1024,
                    !isJvm(c.variant()) ? "-" : c.heapAfterGcKb() < 0 ? "?" : String.format(Locale.ROOT, "%.0f", c.heapAfterGcKb() / 1024),
                    c.connectionsSeen(), c.errors(), c.rampMillis()));
        }
        sb.append('\n');
        if (variants.size() > 1) {
            String base = variants.get(0).name();
            sb.append("## Ratios to `").append(base).append("` (medians; calls/s above 1 is better, the rest below 1 is better)\n\n");
            sb.append("| payload | conns | variant | calls/s | p50 | p99 | threads | RSS | live heap |\n|---:|---:|---|---:|---:|---:|---:|---:|---:|\n");
            for (CellSummary c : cells) {
                if (c.variant().equals(base)) {
                    continue;
                }
                Optional<CellSummary> b = find(base, c.payloadBytes(), c.connections());
                if (b.isEmpty() || !b.get().measured() || !c.measured()) {
                    continue;
                }
                CellSummary j = b.get();
                sb.append(String.format(Locale.ROOT, "| %s | %,d | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %s |%n",
                        size(c.payloadBytes()), c.connections(), c.variant(), c.callsPerSecond() / j.callsPerSecond(),
                        c.p50Micros() / j.p50Micros(), c.p99Micros() / j.p99Micros(), c.serverThreads() / j.serverThreads(),
                        c.serverRssKb() / j.serverRssKb(), isJvm(c.variant()) && isJvm(base)
                                ? String.format(Locale.ROOT, "%.2f", c.heapAfterGcKb() / j.heapAfterGcKb()) : "-"));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private String renderPerConnection() {
        int maxConns = cells.stream().mapToInt(CellSummary::connections).max().orElse(0);
        int minConns = cells.stream().mapToInt(CellSummary::connections).min().orElse(0);
        int smallest = options.payloads().stream().mapToInt(Integer::intValue).min().orElse(100);
        StringBuilder sb = new StringBuilder("## Threads and memory per connection\n\n");
        if (maxConns <= minConns) {
            return sb.append("Only one connection count was measured.\n\n").toString();
        }
        int span = maxConns - minConns;
        sb.append(String.format(Locale.ROOT, "With the %s payload: (figure at %,d connections minus figure at %,d) / %,d."
                + " RSS mostly follows how far the garbage collector chose to grow the heap, so it is a coarse measure;"
                + " the live heap (heap in use right after the latest collection) shows what the server holds."
                + " Idle figures (after the warm-up, before the first trial):", size(smallest), maxConns, minConns, span));
        for (OrbVariant v : variants) {
            ProcessSample i = idle.get(v.name());
            if (i != null) {
                sb.append(String.format(Locale.ROOT, " %s %d threads, %d MB RSS, %s MB live heap;", v.name(), i.threads(),
                        i.rssKb() / 1024, !v.isJvm() ? "-" : idleHeapKb.getOrDefault(v.name(), -1L) < 0 ? "?"
                                : Long.toString(idleHeapKb.get(v.name()) / 1024)));
            }
        }
        sb.setLength(sb.length() - 1);
        sb.append(".\n\n");
        sb.append(String.format(Locale.ROOT, "| variant | threads at %1$,d | threads at %2$,d | RSS MB at %1$,d | RSS MB at %2$,d"
                + " | live heap MB at %1$,d | live heap MB at %2$,d | threads per conn | RSS KB per conn | live heap KB per conn |%n",
                minConns, maxConns));
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (OrbVariant v : variants) {
            Optional<CellSummary> lo = find(v.name(), smallest, minConns).filter(CellSummary::measured);
            Optional<CellSummary> hi = find(v.name(), smallest, maxConns).filter(CellSummary::measured);
            if (lo.isEmpty() || hi.isEmpty()) {
                continue;
            }
            CellSummary a = lo.get();
            CellSummary b = hi.get();
            boolean heapKnown = v.isJvm() && a.heapAfterGcKb() >= 0 && b.heapAfterGcKb() >= 0;
            String noHeap = v.isJvm() ? "?" : "-";
            sb.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %s | %s | %.3f | %.1f | %s |%n", v.name(),
                    a.serverThreads(), b.serverThreads(), a.serverRssKb() / 1024, b.serverRssKb() / 1024,
                    heapKnown ? String.format(Locale.ROOT, "%.0f", a.heapAfterGcKb() / 1024) : noHeap,
                    heapKnown ? String.format(Locale.ROOT, "%.0f", b.heapAfterGcKb() / 1024) : noHeap,
                    (b.serverThreads() - a.serverThreads()) / span, (b.serverRssKb() - a.serverRssKb()) / span,
                    heapKnown ? String.format(Locale.ROOT, "%.1f", (b.heapAfterGcKb() - a.heapAfterGcKb()) / span) : noHeap));
        }
        sb.append('\n');
        return sb.toString();
    }

    private String renderTargets() {
        if (variants.size() < 2) {
            return "## Against the targets\n\nOnly " + variants.get(0).name() + " was measured, so no comparison.\n\n";
        }
        String base = variants.get(0).name();
        StringBuilder sb = new StringBuilder("## Against the targets (issue 2)\n\n");
        for (OrbVariant v : variants.subList(1, variants.size())) {
            for (int payload : options.payloads()) {
                sb.append("- `").append(v.name()).append("`, ").append(size(payload)).append(": ");
                sb.append(verdict(v.name(), base, payload, 16, 1.0, "at least equal at 16 connections"));
                sb.append("; ");
                int max = cells.stream().mapToInt(CellSummary::connections).max().orElse(1000);
                sb.append(verdict(v.name(), base, payload, max, CLEARLY_AHEAD,
                        String.format(Locale.ROOT, "clearly ahead (>= %.1fx) at %,d connections", CLEARLY_AHEAD, max)));
                find(v.name(), payload, max).filter(CellSummary::measured).ifPresent(c -> find(base, payload, max)
                        .filter(CellSummary::measured).ifPresent(b -> sb.append(String.format(Locale.ROOT,
                                "; threads %.0f vs %.0f, RSS %.0f MB vs %.0f MB, live heap %s MB vs %s MB",
                                c.serverThreads(), b.serverThreads(), c.serverRssKb() / 1024, b.serverRssKb() / 1024,
                                heapMb(c), heapMb(b)))));
                sb.append('\n');
            }
        }
        sb.append('\n');
        return sb.toString();
    }

    private String verdict(String variant, String base, int payload, int conns, double needed, String target) {
        Optional<CellSummary> c = find(variant, payload, conns).filter(CellSummary::measured);
        Optional<CellSummary> b = find(base, payload, conns).filter(CellSummary::measured);
        if (c.isEmpty() || b.isEmpty()) {
            return target + ": not measured";
        }
        double ratio = c.get().callsPerSecond() / b.get().callsPerSecond();
        if (c.get().errors() > 0) {
            // Calls that failed or got no reply make the throughput meaningless as a comparison.
            return String.format(Locale.ROOT, "%s: NOT met, %,d failed calls (%.2fx calls/s)", target, c.get().errors(), ratio);
        }
        return String.format(Locale.ROOT, "%s: %s (%.2fx calls/s)", target, ratio >= needed ? "met" : "NOT met", ratio);
    }

    /** True unless {@code variant} is one of the measured variants and does not run in a JVM. */
    private boolean isJvm(String variant) {
        return variants.stream().filter(v -> v.name().equals(variant)).allMatch(OrbVariant::isJvm);
    }

    private String heapMb(CellSummary c) {
        return isJvm(c.variant()) ? String.format(Locale.ROOT, "%.0f", c.heapAfterGcKb() / 1024) : "-";
    }

    private Optional<CellSummary> find(String variant, int payload, int conns) {
        return cells.stream().filter(c -> c.variant().equals(variant) && c.payloadBytes() == payload
                && c.connections() == conns).findFirst();
    }

    private static String size(int bytes) {
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes / 1024) + " KB";
        }
        return bytes + " B";
    }

    /** What omniORB is used for in this run: the load client, the C++ server variant, both or neither. */
    private static String omniOrbRole(boolean cppServer, BenchmarkOptions.LoadClient client) {
        if (client != BenchmarkOptions.LoadClient.OMNIORB) {
            return cppServer ? " (C++ server)" : " (not used)";
        }
        return cppServer ? " (load client and C++ server)" : " (load client)";
    }
}
