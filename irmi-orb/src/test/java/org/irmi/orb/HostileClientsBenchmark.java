package org.irmi.orb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.HdrHistogram.Histogram;
import org.omg.CORBA.ORB;

/**
 * The hostile-clients benchmark of issue 11: one well-behaved client beside every hostile client
 * at once, against an I-RMI server and a stock JacORB server, each in a JVM of its own with the
 * same heap, in interleaved trials.
 *
 * <p>Per trial: a quiet phase (the well-behaved client alone), a hostile phase, then a decoy phase. The hostile phase has, all at
 * once: 20 heap bombs (a header declaring a 64 MiB body, one byte, held), 20 fragment pinners (a
 * first fragment with more to come, never followed), 4 never-reading clients (256 KB echo
 * requests, replies never read), 2 request floods (pipelined small requests as fast as the server
 * takes them) and 1,000 slowloris connections (one byte every 2 s). The well-behaved client makes
 * closed-loop {@code echoString} calls on a stock JacORB client ORB throughout.
 *
 * <p>The decoy phase ({@code --decoy S}, as long as the hostile phase by default; 0: none) is the control for
 * this machine: the same attackers, started the same way, attack a second server of the same kind and settings
 * (the decoy, a process of its own) while the well-behaved client goes on calling the server under test. The
 * floods are capped at the replies per second they got from the server under test in the hostile phase, so the
 * decoy serves as much of the attack as that server did (uncapped, an I-RMI decoy with no closed-loop client to
 * keep a core for served the floods 3.5 times as fast, and loaded the machine more than the attack on the server
 * under test had); the machine's idle share in both phases is reported beside them. The
 * server under test then shares nothing with the attack but the machine: its cores, its memory bus, its
 * loopback. So the decoy's p99 is what sharing 2 cores with the attack costs the well-behaved client whatever
 * the server does, and {@code hostile / decoy} is what the server under test adds to that by serving the
 * attackers itself: its isolation. On a machine where the attackers and their server ran elsewhere the decoy
 * phase would equal the quiet one.
 *
 * <p>Prints, and writes to {@code results/hostile-clients.md} (with {@code --update-docs} to the
 * documentation page {@code docs/benchmarks/hostile-clients.md}): the well-behaved client's
 * p50/p99 quiet and hostile, their ratio, its calls lost (failed or wrong), the server's peak RSS,
 * whether it stayed up, and (I-RMI) the inbound budget's peak held bytes against its limit.
 *
 * <p>Run: {@code scripts/hostile-bench.sh} ({@code --trials N}, {@code --quiet S}, {@code --hostile S},
 * {@code --servers irmi,stock}, {@code --out FILE}, {@code --update-docs}). With {@code -Dirmi.hostile.trace=true} the I-RMI server
 * also prints, per kind of client, where its requests' time went ({@link WaitTrace}).
 */
public final class HostileClientsBenchmark {

    static final String HEAP = "-Xmx256m";

    /** One trial's outcome. */
    record Trial(String orb, int n, long quietP50, long quietP99, long hostileP50, long hostileP99, long calls,
                 long lost, long peakRssKb, boolean up, long peakHeld, long limit, String note, long floodRepliesPerSec,
                 long neverReaderBytes, long slowlorisOpen, long serverOpenPeak, double serverCores, double machineIdle,
                 Decoy decoy) {
        double ratio() {
            return quietP99 == 0 ? Double.NaN : (double) hostileP99 / quietP99;
        }

        /** The hostile p99 over the decoy phase's: what the server under test adds to the machine's share; NaN without one. */
        double ratioToDecoy() {
            return decoy == null || decoy.p99 == 0 ? Double.NaN : (double) hostileP99 / decoy.p99;
        }

        /** The decoy phase's p99 over the quiet one: what sharing the machine with the attack costs; NaN without one. */
        double decoyRatio() {
            return decoy == null || quietP99 == 0 ? Double.NaN : (double) decoy.p99 / quietP99;
        }
    }

    /**
     * The well-behaved client while the attackers attacked the decoy server instead of the server under test.
     *
     * @param p50                 its p50, us
     * @param p99                 its p99, us
     * @param lost                its calls lost in that phase
     * @param floodRepliesPerSec  what the floods got out of the decoy: the attack was as strong as on the server under test
     * @param decoyUp             whether the decoy server was still up at the phase's end
     * @param machineIdle         the machine's idle share over the phase's measurement (all CPUs, {@code /proc/stat})
     */
    record Decoy(long p50, long p99, long lost, long floodRepliesPerSec, boolean decoyUp, double machineIdle) {
    }

    private HostileClientsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int trials = 3;
        int quietSeconds = 10;
        int hostileSeconds = 20;
        Integer decoySeconds = null;
        Path out = Paths.get("results/hostile-clients.md");
        List<String> servers = List.of("irmi", "stock");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--trials" -> trials = Integer.parseInt(args[++i]);
                case "--quiet" -> quietSeconds = Integer.parseInt(args[++i]);
                case "--hostile" -> hostileSeconds = Integer.parseInt(args[++i]);
                case "--decoy" -> decoySeconds = Integer.parseInt(args[++i]);
                case "--out" -> out = Paths.get(args[++i]);
                case "--update-docs" -> out = Paths.get("docs/benchmarks/hostile-clients.md");
                case "--servers" -> servers = servers(args[++i]); // e.g. irmi: no stock JacORB trials
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        int decoy = decoySeconds != null ? decoySeconds : hostileSeconds;
        List<Trial> results = new ArrayList<>();
        for (int t = 1; t <= trials; t++) {
            for (String orb : servers) {
                Trial r = trial(orb, t, quietSeconds, decoy, hostileSeconds);
                System.out.printf(Locale.ROOT, "trial %d %-5s quiet p50/p99 %d/%d us, decoy p50/p99 %s us, hostile p50/p99 %d/%d us"
                                + " (%.2fx quiet, %.2fx decoy), calls %d, lost %d, peak RSS %d MB, up %s, held %d/%d %s%n", t, orb,
                        r.quietP50, r.quietP99, r.decoy == null ? "-" : r.decoy.p50 + "/" + r.decoy.p99, r.hostileP50,
                        r.hostileP99, r.ratio(), r.ratioToDecoy(), r.calls, r.lost, r.peakRssKb / 1024, r.up, r.peakHeld,
                        r.limit, r.note);
                results.add(r);
            }
        }
        write(out, results, servers, trials, quietSeconds, decoy, hostileSeconds, String.join(" ", args));
        System.out.println("wrote " + out);
    }

    static Trial trial(String orb, int n, int quietSeconds, int decoySeconds, int hostileSeconds) throws Exception {
        List<String> options = new ArrayList<>(List.of(HEAP, "-XX:+UseSerialGC"));
        String extra = System.getProperty("irmi.hostile.serverOptions", "") + (TRACE ? " -Dirmi.hostile.trace=true" : "");
        if (!extra.isBlank()) {
            options.addAll(List.of(extra.trim().split("\\s+"))); // e.g. a transport setting to compare
        }
        ServerProcess server = ServerProcess.start(orb, 0, options.toArray(String[]::new));
        int port = server.port;
        Process child = server.process;
        ORB client = null;
        AttackerProcess attackers = null;
        HostileAttackers inProcess = null;
        Map<String, String> attack = Map.of();
        try {
            String ior = server.ior();
            client = Orbs.stock("jacorb.connection.client.pending_reply_timeout", "30000");
            Echo echo = EchoHelper.narrow(client.string_to_object(ior));
            byte[] key = GiopClient.objectKey(client.string_to_object(ior));
            if (ATTACKERS_OWN_JVM) {
                attackers = AttackerProcess.start(port, key); // idle until the hostile phase
            }
            long[] lost = {0};
            long[] calls = {0};
            for (int i = 0; i < 2_000; i++) { // warm-up: JIT both sides before the quiet figure
                call(echo, i, lost, calls);
            }
            lost[0] = 0;
            calls[0] = 0;
            LOST_BECAUSE.clear();
            if (TRACE) {
                server.command("trace warmup");
            }
            Histogram quiet = measure(echo, quietSeconds, lost, calls);
            if (TRACE) {
                server.command("trace quiet");
            }
            long peakRss = rssKb(child.pid());
            // the hostile clients, all at once: in this JVM (the set-up before) or in one of their own
            long cpu0 = cpuTicks(child.pid());
            long hostileStart = System.nanoTime();
            if (attackers != null) {
                attackers.command("start");
                attackers.await("STARTED");
            } else {
                inProcess = new HostileAttackers(port, key);
                inProcess.start();
            }
            Thread.sleep(1_000); // the hostile clients connect
            long[] machine0 = machineTicks();
            long[] peakHeld = {0};
            long[] limit = {0};
            long[] peakOpen = {0};
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(hostileSeconds);
            Histogram loaded = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
            long lastStats = 0;
            while (System.nanoTime() < end && child.isAlive()) {
                long t0 = System.nanoTime();
                call(echo, (int) calls[0], lost, calls, loaded, t0);
                if (t0 - lastStats > TimeUnit.MILLISECONDS.toNanos(500)) {
                    lastStats = t0;
                    peakRss = Math.max(peakRss, rssKb(child.pid()));
                    if (orb.equals("irmi") && child.isAlive()) {
                        Map<String, Long> s = server.stats();
                        peakHeld[0] = Math.max(peakHeld[0], s.getOrDefault("held", 0L));
                        peakOpen[0] = Math.max(peakOpen[0], s.getOrDefault("open", 0L));
                        limit[0] = s.getOrDefault("limit", 0L);
                    }
                }
            }
            boolean up = child.isAlive();
            double machineIdle = idleShare(machine0, machineTicks());
            double hostileSecondsRun = (System.nanoTime() - hostileStart) / 1e9;
            double serverCpu = up ? (cpuTicks(child.pid()) - cpu0) / 100.0 / hostileSecondsRun : Double.NaN; // cores used
            attack = attackers != null ? attackers.stop() : inProcess.stop();
            attackers = null;
            inProcess = null;
            String attackLine = String.format(Locale.ROOT, "flood replies/s %s, never-reader bytes accepted %s, slowloris open %s,"
                            + " bombs %s, pinners %s, server open conns peak %d, server CPU %.2f cores", attack.get("floodRepliesPerSec"),
                    attack.get("neverReaderBytes"), attack.get("slowlorisOpen"), attack.get("bombs"), attack.get("pinners"),
                    peakOpen[0], serverCpu);
            System.out.println("ATTACK trial " + n + " " + orb + " (" + (ATTACKERS_OWN_JVM ? "own JVM: " + ATTACKER_PREFIX : "in the client's JVM")
                    + "): " + attackLine + " " + attack);
            if (!up) {
                String o = server.output();
                System.out.println("server died; its last output:\n" + o.substring(Math.max(0, o.length() - 4000)));
            }
            // the control: the same attack on a decoy, the floods capped at what they got here
            Decoy decoy = decoySeconds > 0 && up ? decoyPhase(orb, options, client, echo, decoySeconds, lost, calls,
                    Long.parseLong(attack.getOrDefault("floodRepliesPerSec", "0"))) : null;
            if (TRACE && up) {
                server.command("trace hostile");
                server.stats(); // answered after the trace lines
                server.output().lines().filter(l -> l.startsWith("TRACE") && !l.contains(" warmup ")).forEach(System.out::println);
                System.out.printf(Locale.ROOT, "TRACE client quiet p50=%d p90=%d p99=%d hostile p50=%d p90=%d p99=%d us%n",
                        quiet.getValueAtPercentile(50), quiet.getValueAtPercentile(90), quiet.getValueAtPercentile(99),
                        loaded.getValueAtPercentile(50), loaded.getValueAtPercentile(90), loaded.getValueAtPercentile(99));
            }
            String note = server.output().contains("OutOfMemoryError") ? "OutOfMemoryError in the server's output" : "";
            if (!LOST_BECAUSE.isEmpty()) {
                note = (note.isEmpty() ? "" : note + "; ") + "lost: " + LOST_BECAUSE;
            }
            long takeovers = server.output().lines().filter(l -> l.contains("the reader thread for")).count();
            if (takeovers > 0) { // InlineRuns: a request run on the reader blocked it, and a new thread took over
                note = (note.isEmpty() ? "" : note + "; ") + "reader taken over " + takeovers + " time(s)";
            }
            return new Trial(orb, n, quiet.getValueAtPercentile(50), quiet.getValueAtPercentile(99),
                    loaded.getValueAtPercentile(50), loaded.getValueAtPercentile(99), calls[0], lost[0], peakRss, up,
                    peakHeld[0], limit[0], note, Long.parseLong(attack.getOrDefault("floodRepliesPerSec", "0")),
                    Long.parseLong(attack.getOrDefault("neverReaderBytes", "0")), Long.parseLong(attack.getOrDefault("slowlorisOpen", "0")),
                    peakOpen[0], serverCpu, machineIdle, decoy);
        } finally {
            if (attackers != null) {
                attackers.stop();
            }
            if (inProcess != null) {
                inProcess.stop();
            }
            if (client != null) {
                Orbs.destroy(client);
            }
            server.close();
        }
    }

    /**
     * Where the hostile clients run ({@code -Dirmi.hostile.attackers}): {@code process} (default) in a JVM of
     * their own, started with {@link #ATTACKER_PREFIX}; {@code inprocess} in this JVM beside the good client,
     * the set-up of the runs before.
     */
    static final boolean ATTACKERS_OWN_JVM = !System.getProperty("irmi.hostile.attackers", "process").equals("inprocess");

    /**
     * The command prefix of the attackers' JVM ({@code -Dirmi.hostile.attackerPrefix}), e.g. {@code nice -n 19}:
     * the attackers' own CPU yields to the good client's JVM and to the server.
     */
    static final String ATTACKER_PREFIX = System.getProperty("irmi.hostile.attackerPrefix", "nice -n 19");

    /**
     * The decoy phase: a second server of the same kind and settings, attacked as the server under test will
     * be, while the well-behaved client calls the server under test for {@code seconds}. The decoy and its
     * attackers are gone when this returns.
     */
    private static Decoy decoyPhase(String orb, List<String> options, ORB client, Echo echo, int seconds, long[] lost,
                                    long[] calls, long floodCapPerSec) throws Exception {
        ServerProcess decoy = ServerProcess.start(orb, 0, options.toArray(String[]::new));
        AttackerProcess attackers = null;
        HostileAttackers inProcess = null;
        try {
            byte[] key = GiopClient.objectKey(client.string_to_object(decoy.ior()));
            if (ATTACKERS_OWN_JVM) {
                attackers = AttackerProcess.start(decoy.port, key, Math.max(1, floodCapPerSec));
                attackers.command("start");
                attackers.await("STARTED");
            } else {
                inProcess = new HostileAttackers(decoy.port, key, Math.max(1, floodCapPerSec));
                inProcess.start();
            }
            Thread.sleep(1_000); // the hostile clients connect, as in the hostile phase
            long lostBefore = lost[0];
            long[] machine0 = machineTicks();
            Histogram h = measure(echo, seconds, lost, calls);
            double idle = idleShare(machine0, machineTicks());
            boolean decoyUp = decoy.process.isAlive();
            Map<String, String> attack = attackers != null ? attackers.stop() : inProcess.stop();
            attackers = null;
            inProcess = null;
            System.out.println("DECOY " + serverName(orb) + ": " + attack + (decoyUp ? "" : ", the decoy server died"));
            return new Decoy(h.getValueAtPercentile(50), h.getValueAtPercentile(99), lost[0] - lostBefore,
                    Long.parseLong(attack.getOrDefault("floodRepliesPerSec", "0")), decoyUp, idle);
        } finally {
            if (attackers != null) {
                attackers.stop();
            }
            if (inProcess != null) {
                inProcess.stop();
            }
            decoy.close();
        }
    }

    /** The machine's {total, idle + iowait} clock ticks over all CPUs ({@code /proc/stat}); zeros when unreadable. */
    static long[] machineTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) { // user nice system idle iowait irq softirq steal
                total += Long.parseLong(f[i]);
            }
            return new long[] {total, Long.parseLong(f[4]) + Long.parseLong(f[5])};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }

    /** The idle share between two {@link #machineTicks} readings; NaN when unknown. */
    static double idleShare(long[] before, long[] after) {
        long total = after[0] - before[0];
        return total <= 0 ? Double.NaN : (double) (after[1] - before[1]) / total;
    }

    /** The server JVM's user + system CPU time in clock ticks (1/100 s). */
    static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** {@link HostileAttackers} in a JVM of their own. */
    static final class AttackerProcess {
        final Process process;
        private final java.util.concurrent.LinkedBlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        private final java.io.PrintStream toChild;
        private boolean stopped;

        private AttackerProcess(Process process) {
            this.process = process;
            Thread pump = new Thread(() -> {
                try (java.io.BufferedReader r = new java.io.BufferedReader(
                        new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = r.readLine()) != null) {
                        lines.add(l);
                    }
                } catch (IOException ignored) {
                    // ended
                }
            }, "attackers-output");
            pump.setDaemon(true);
            pump.start();
            toChild = new java.io.PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        }

        static AttackerProcess start(int port, byte[] key) throws IOException, InterruptedException {
            return start(port, key, 0);
        }

        /** As above, the floods capped at {@code floodCapPerSec} requests per second (0: no cap). */
        static AttackerProcess start(int port, byte[] key, long floodCapPerSec) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>();
            if (!ATTACKER_PREFIX.isBlank()) {
                command.addAll(List.of(ATTACKER_PREFIX.trim().split("\\s+")));
            }
            command.addAll(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                    "-cp", System.getProperty("java.class.path"), HostileAttackers.class.getName(), Integer.toString(port),
                    java.util.HexFormat.of().formatHex(key), Long.toString(floodCapPerSec)));
            AttackerProcess a = new AttackerProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
            a.await("READY");
            return a;
        }

        void command(String line) {
            toChild.println(line);
        }

        String await(String prefix) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                String l = lines.poll(1, TimeUnit.SECONDS);
                if (l != null && l.startsWith(prefix)) {
                    return l;
                }
            }
            throw new AssertionError("no line starting with '" + prefix + "' from the attackers' JVM");
        }

        Map<String, String> stop() throws InterruptedException {
            if (stopped) {
                return Map.of();
            }
            stopped = true;
            command("stop");
            Map<String, String> m = new java.util.LinkedHashMap<>();
            try {
                for (String kv : await("ATTACK").substring(6).trim().split(" ")) {
                    String[] p = kv.split("=");
                    m.put(p[0], p[1]);
                }
            } finally {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
            return m;
        }
    }

    private static Histogram measure(Echo echo, int seconds, long[] lost, long[] calls) {
        Histogram h = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            call(echo, (int) calls[0], lost, calls, h, System.nanoTime());
        }
        return h;
    }

    private static void call(Echo echo, int i, long[] lost, long[] calls) {
        call(echo, i, lost, calls, null, 0);
    }

    /** Why calls were lost in the trial running now: "wrong answer" or the exception and its minor code. */
    private static final Map<String, Long> LOST_BECAUSE = new java.util.TreeMap<>();

    /** Diagnostic ({@code -Dirmi.hostile.trace=true}): the server prints where requests wait ({@link WaitTrace}). */
    static final boolean TRACE = Boolean.getBoolean("irmi.hostile.trace");

    private static void call(Echo echo, int i, long[] lost, long[] calls, Histogram h, long t0) {
        String s = TRACE ? "call " + i + " " + System.nanoTime() : "call " + i;
        calls[0]++;
        try {
            if (!s.equals(echo.echoString(s))) {
                lost[0]++;
                LOST_BECAUSE.merge("wrong answer", 1L, Long::sum);
            }
        } catch (RuntimeException e) {
            lost[0]++;
            String why = e instanceof org.omg.CORBA.SystemException se
                    ? e.getClass().getSimpleName() + " minor 0x" + Integer.toHexString(se.minor) : e.getClass().getSimpleName();
            LOST_BECAUSE.merge(why, 1L, Long::sum);
        }
        if (h != null) {
            h.recordValue(Math.min(h.getHighestTrackableValue(), (System.nanoTime() - t0) / 1000));
        }
    }

    private static long rssKb(long pid) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (l.startsWith("VmRSS:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    private static void write(Path out, List<Trial> results, List<String> servers, int trials, int quiet, int decoy, int hostile,
                              String args) throws IOException {
        String report = report(results, servers, trials, quiet, decoy, hostile, args);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report);
        System.out.print(report);
    }

    /** The report of {@code results}: one row per trial, and the medians of each server in {@code servers}. */
    static String report(List<Trial> results, List<String> servers, int trials, int quiet, int decoy, int hostile, String args) {
        StringBuilder b = new StringBuilder();
        String commit = git("rev-parse", "--short", "HEAD");
        b.append("# Hostile clients\n\n");
        b.append("Made on commit `").append(commit).append("`, ").append(LocalDate.now()).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" CPUs, Java ").append(System.getProperty("java.version"))
                .append(". Command: `")
                .append(System.getProperty("irmi.hostile.serverOptions", "").isBlank() ? ""
                        : "HOSTILE_SERVER_OPTIONS='" + System.getProperty("irmi.hostile.serverOptions").trim() + "' ")
                .append("scripts/hostile-bench.sh").append(args.isBlank() ? "" : " " + args).append("`.\n\n");
        b.append("Each server runs in a JVM of its own with `").append(HEAP).append(" -XX:+UseSerialGC` (I-RMI's inbound budget is")
                .append(" then its default, a quarter of the heap). One well-behaved client (a stock JacORB ORB) makes closed-loop")
                .append(" `echoString` calls: ").append(quiet).append(" s alone (quiet), ")
                .append(hostile).append(" s beside, all at once: ").append(HostileAttackers.HEAP_BOMBS).append(" heap bombs (a header declaring a 64 MiB body, one")
                .append(" byte, held), ").append(HostileAttackers.PINNERS).append(" fragment pinners (a first fragment, the rest never sent), ")
                .append(HostileAttackers.NEVER_READERS).append(" never-reading clients (256 KB echo requests, replies never read), ").append(HostileAttackers.FLOODS)
                .append(" request floods (pipelined small requests) and ").append(HostileAttackers.SLOWLORIS)
                .append(" slowloris connections (one byte every 2 s)")
                .append(decoy > 0 ? ", then " + decoy + " s while the same attackers attack a decoy instead (a second server of the"
                        + " same kind and settings, in a process of its own, the floods capped at the replies per second they got in the"
                        + " hostile phase): the machine's share of the harm" : "").append(". ").append(trials)
                .append(" trials, ").append(servers.size() > 1 ? "I-RMI and stock JacORB interleaved" : "on " + serverName(servers.get(0)) + " only")
                .append(". Lost: calls that failed or came back wrong.\n\n");
        b.append("Attackers: ").append(ATTACKERS_OWN_JVM ? "in a JVM of their own, started with `" + ATTACKER_PREFIX + "`"
                : "in the good client's JVM").append(".\n\n");
        b.append("| server | trial | quiet p50 / p99 (us) | decoy p50 / p99 (us) | hostile p50 / p99 (us) | p99 hostile / quiet |")
                .append(" p99 decoy / quiet | p99 hostile / decoy | calls | lost |")
                .append(" server up | peak RSS (MB) | inbound budget peak / limit (MiB) | flood replies/s | never-reader MB accepted |")
                .append(" slowloris open | server conns peak | server CPU (cores) | note |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Trial r : results) {
            b.append(String.format(Locale.ROOT, "| %s | %d | %d / %d | %s | %d / %d | %.2fx | %s | %s | %d | %d | %s | %d | %s | %d | %.1f | %d | %s | %.2f | %s |%n",
                    serverName(r.orb), r.n, r.quietP50, r.quietP99,
                    r.decoy == null ? "-" : r.decoy.p50 + " / " + r.decoy.p99, r.hostileP50, r.hostileP99, r.ratio(),
                    ratio(r.decoyRatio()), ratio(r.ratioToDecoy()), r.calls, r.lost, r.up ? "yes" : "**no**", r.peakRssKb / 1024,
                    r.limit == 0 ? "-" : String.format(Locale.ROOT, "%.1f / %.1f", r.peakHeld / 1048576.0, r.limit / 1048576.0),
                    r.floodRepliesPerSec, r.neverReaderBytes / 1e6, r.slowlorisOpen, r.serverOpenPeak == 0 ? "-" : Long.toString(r.serverOpenPeak),
                    r.serverCores, decoyNote(r)));
        }
        b.append("\n**Medians over the trials**\n\n| server | p99 hostile / quiet (min - max) | p99 decoy / quiet (min - max) |")
                .append(" p99 hostile / decoy (min - max) | lost (total) | up in every trial |\n|---|---|---|---|---|---|\n");
        for (String orb : servers) { // only the servers that ran: no empty row
            List<Trial> mine = results.stream().filter(r -> r.orb.equals(orb)).toList();
            long lost = mine.stream().mapToLong(Trial::lost).sum();
            boolean up = mine.stream().allMatch(Trial::up);
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %s |%n", serverName(orb),
                    medianRange(mine.stream().mapToDouble(Trial::ratio).toArray()),
                    medianRange(mine.stream().mapToDouble(Trial::decoyRatio).toArray()),
                    medianRange(mine.stream().mapToDouble(Trial::ratioToDecoy).toArray()), lost, up ? "yes" : "no"));
        }
        b.append("\nGoal (issue 11): the well-behaved client's p99 within 1.2x of its quiet p99, the server within its memory")
                .append(" budget, nothing lost. The decoy columns separate the two causes of a higher p99 on this machine: p99 decoy /")
                .append(" quiet is what sharing its cores with the attack costs whatever the server does; p99 hostile / decoy is")
                .append(" what the server under test adds by serving the attackers itself.\n");
        return b.toString();
    }

    /** {@code 1.23x (1.10 - 1.40)}, the median and range of {@code values} without NaNs; {@code -} when none. */
    static String medianRange(double[] values) {
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (v.length == 0) {
            return "-";
        }
        double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return String.format(Locale.ROOT, "%.2fx (%.2f - %.2f)", median, v[0], v[v.length - 1]);
    }

    private static String ratio(double r) {
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2fx", r);
    }

    private static String decoyNote(Trial r) {
        if (r.decoy == null) {
            return r.note;
        }
        String d = String.format(Locale.ROOT, "decoy: flood replies/s %d, lost %d%s; machine idle hostile %.0f%%, decoy %.0f%%",
                r.decoy.floodRepliesPerSec, r.decoy.lost, r.decoy.decoyUp ? "" : ", the decoy server died",
                100 * r.machineIdle, 100 * r.decoy.machineIdle);
        return r.note.isEmpty() ? d : r.note + "; " + d;
    }

    /** The servers of {@code --servers}: a comma-separated list of {@code irmi} and {@code stock}, each at most once. */
    static List<String> servers(String list) {
        List<String> servers = List.of(list.split(","));
        if (servers.isEmpty() || servers.stream().anyMatch(s -> !s.equals("irmi") && !s.equals("stock"))
                || servers.stream().distinct().count() != servers.size()) {
            throw new IllegalArgumentException("--servers takes irmi, stock or both, comma-separated: " + list);
        }
        return servers;
    }

    static String serverName(String orb) {
        return orb.equals("irmi") ? "I-RMI" : "stock JacORB";
    }

    private static String git(String... args) {
        try {
            List<String> cmd = new ArrayList<>(List.of("git"));
            cmd.addAll(Arrays.asList(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 ? s : "unknown";
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }
}
