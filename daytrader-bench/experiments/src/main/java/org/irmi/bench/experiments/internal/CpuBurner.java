package org.irmi.bench.experiments.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.irmi.bench.daytrader.ChildJvm;
import org.irmi.bench.daytrader.ChildJvmBuilder;

/**
 * Another process that takes CPU in bursts: the scripted stand-in for a browser starting, a build or
 * a backup on a server's machine. It is a child JVM (so the contention comes from another process, as
 * it does in production), pinned with {@code taskset -c} to the given CPUs, that runs one busy thread
 * per CPU for {@code burn} at the start of every {@code period} and sleeps the rest of it.
 *
 * <pre>
 *   burning at t  &lt;=&gt;  (t - offset) mod period &lt; burn        t: time since the child started, t &gt;= offset
 *   CPU taken      =  threads * burn / period cores                (2 s in every 10 on one CPU: 0.2 cores)
 * </pre>
 *
 * <p>Use: {@code children.start(CpuBurner.custom().cpus("1").build().child("cpu-burner"))}, or
 * {@link #start} with a log file. The child speaks the line protocol of {@link ChildJvm.Output#LINES}:
 * it prints {@code burner-ready THREADS BURN_MS PERIOD_MS} once, {@code burner-burst N} as burst N
 * begins, and exits on a {@code stop} line or when its stdin closes (its parent died).
 *
 * <p>Immutable; THREAD-SAFE.
 */
public final class CpuBurner {

    /** Default burst: 2 s. */
    public static final Duration DEFAULT_BURN = Duration.ofSeconds(2);
    /** Default period: 10 s. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(10);
    /** Default offset of the first burst: none. */
    public static final Duration DEFAULT_OFFSET = Duration.ZERO;

    private final String cpus;
    private final int threads;
    private final long burnNanos;
    private final long periodNanos;
    private final long offsetNanos;

    private CpuBurner(Builder b) {
        this.cpus = b.cpus;
        this.threads = b.threads > 0 ? b.threads : cpuCount(b.cpus);
        this.burnNanos = b.burn.toNanos();
        this.periodNanos = b.period.toNanos();
        this.offsetNanos = b.offset.toNanos();
    }

    /** @return a builder with the defaults: unpinned, one thread, 2 s in every 10, no offset */
    public static Builder custom() {
        return new Builder();
    }

    /** @return the CPUs it is pinned to ({@code taskset -c} syntax), or null when unpinned */
    public String cpus() {
        return cpus;
    }

    /** @return busy threads during a burst (default: one per CPU of {@link #cpus()}) */
    public int threads() {
        return threads;
    }

    /** @return length of a burst, nanoseconds */
    public long burnNanos() {
        return burnNanos;
    }

    /** @return one burst begins every this many nanoseconds */
    public long periodNanos() {
        return periodNanos;
    }

    /** @return delay of the first burst after the child starts, nanoseconds */
    public long offsetNanos() {
        return offsetNanos;
    }

    /** @return the CPU it takes on average, in cores ({@code threads * burn / period}) */
    public double averageCores() {
        return threads * (double) burnNanos / periodNanos;
    }

    /**
     * The schedule, exact arithmetic.
     *
     * @param sinceStartNanos time since the child started
     * @return whether the burner is busy then
     */
    public boolean burningAt(long sinceStartNanos) {
        long t = sinceStartNanos - offsetNanos;
        return t >= 0 && t % periodNanos < burnNanos;
    }

    /**
     * @param sinceStartNanos time since the child started
     * @return when, since the start, the burner next starts or stops burning (strictly after the argument)
     */
    public long nextChangeNanos(long sinceStartNanos) {
        long t = sinceStartNanos - offsetNanos;
        if (t < 0) {
            return offsetNanos;
        }
        long periodStart = t - t % periodNanos;
        long inPeriod = t - periodStart;
        long next = inPeriod < burnNanos ? periodStart + burnNanos : periodStart + periodNanos;
        return next + offsetNanos;
    }

    /**
     * The child JVM, to be started by the caller (e.g. an experiment's {@code Children}, which sets
     * its output): pinned to {@link #cpus()}, with a small heap.
     *
     * @param name the child's name (its log file is {@code <name>.log} under {@code Children})
     * @return the builder
     */
    public ChildJvmBuilder child(String name) {
        return ChildJvm.builder(name, CpuBurner.class)
                .cpus(cpus)
                .jvmOptions(List.of("-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
                .args(List.of(String.valueOf(threads), String.valueOf(burnNanos / 1_000_000),
                        String.valueOf(periodNanos / 1_000_000), String.valueOf(offsetNanos / 1_000_000)));
    }

    /**
     * Starts the child, its output lines to {@code logFile}, and waits until it is ready.
     *
     * @param logFile where its lines go
     * @return the running child; {@link ChildJvm#close()} stops it
     */
    public ChildJvm start(java.nio.file.Path logFile) throws IOException, InterruptedException {
        ChildJvm child = child("cpu-burner").output(ChildJvm.Output.LINES, logFile).start();
        if (child.awaitLine("burner-ready", 30_000) == null) {
            child.close();
            throw new IOException("the CPU burner did not start; see " + logFile);
        }
        return child;
    }

    @Override
    public String toString() {
        return "CpuBurner[" + threads + " thread(s) on CPUs " + (cpus == null ? "any" : cpus) + ", "
                + burnNanos / 1_000_000 + " ms in every " + periodNanos / 1_000_000 + " ms, offset "
                + offsetNanos / 1_000_000 + " ms]";
    }

    /** Counts the CPUs of a {@code taskset -c} list ("1", "0-1", "0,2-3"); 1 when unpinned. */
    static int cpuCount(String cpus) {
        if (cpus == null) {
            return 1;
        }
        int n = 0;
        for (String part : cpus.split(",")) {
            String p = part.trim();
            int dash = p.indexOf('-');
            if (dash < 0) {
                Integer.parseInt(p);
                n++;
            } else {
                int from = Integer.parseInt(p.substring(0, dash));
                int to = Integer.parseInt(p.substring(dash + 1));
                if (to < from) {
                    throw new IllegalArgumentException("cpus: range " + p + " runs backwards");
                }
                n += to - from + 1;
            }
        }
        return n;
    }

    /**
     * The child: {@code THREADS BURN_MS PERIOD_MS [OFFSET_MS]}. Exits on a {@code stop} line or at
     * the end of its stdin.
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: CpuBurner THREADS BURN_MS PERIOD_MS [OFFSET_MS]");
            System.exit(2);
        }
        CpuBurner burner = custom().threads(Integer.parseInt(args[0]))
                .burn(Duration.ofMillis(Long.parseLong(args[1])))
                .period(Duration.ofMillis(Long.parseLong(args[2])))
                .offset(Duration.ofMillis(args.length > 3 ? Long.parseLong(args[3]) : 0))
                .build();
        long start = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < burner.threads(); i++) {
            boolean announces = i == 0;
            Thread t = new Thread(() -> burner.run(start, announces), "cpu-burner-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
        System.out.println("burner-ready " + burner.threads() + " " + burner.burnNanos / 1_000_000 + " "
                + burner.periodNanos / 1_000_000);
        System.out.flush();
        workers.forEach(Thread::start);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null && !line.trim().equals("stop")) {
                // only "stop" (or the end of stdin) means anything
            }
        }
        System.exit(0);
    }

    /** One busy thread: spins while the schedule says burn, sleeps until the next burst otherwise. */
    private void run(long startNanos, boolean announces) {
        long bursts = 0;
        long sink = 0;
        while (true) {
            long t = System.nanoTime() - startNanos;
            if (burningAt(t)) {
                if (announces) {
                    System.out.println("burner-burst " + ++bursts);
                    System.out.flush();
                }
                long until = nextChangeNanos(t);
                while (System.nanoTime() - startNanos < until) {
                    for (int i = 0; i < 10_000; i++) {
                        sink += i * 31L ^ sink; // work the JIT cannot remove: the result is kept below
                    }
                }
            } else {
                long sleepNanos = nextChangeNanos(t) - t;
                try {
                    Thread.sleep(sleepNanos / 1_000_000, (int) (sleepNanos % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (sink == 42) {
                System.out.print(""); // keeps sink alive
            }
        }
    }

    /** Builder of a {@link CpuBurner}; each setter validates its field. NOT THREAD-SAFE. */
    public static final class Builder {
        private String cpus;
        private int threads;
        private Duration burn = DEFAULT_BURN;
        private Duration period = DEFAULT_PERIOD;
        private Duration offset = DEFAULT_OFFSET;

        private Builder() {
        }

        /** @param cpus the CPUs to pin to, {@code taskset -c} syntax ("1", "0-1"); null: unpinned @return this */
        public Builder cpus(String cpus) {
            if (cpus != null) {
                try {
                    if (cpuCount(cpus) < 1) {
                        throw new IllegalArgumentException("cpus must name at least one CPU, was \"" + cpus + "\"");
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("cpus must be a taskset -c list such as \"1\" or \"0-1\", was \""
                            + cpus + "\"");
                }
            }
            this.cpus = cpus;
            return this;
        }

        /** @param threads busy threads during a burst, &gt;= 1 (default: one per CPU of {@link #cpus}) @return this */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be >= 1, was " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** @param burn length of a burst, &gt; 0 and at most the period (checked at build) @return this */
        public Builder burn(Duration burn) {
            Objects.requireNonNull(burn, "burn");
            if (burn.isNegative() || burn.isZero()) {
                throw new IllegalArgumentException("burn must be > 0, was " + burn);
            }
            this.burn = burn;
            return this;
        }

        /** @param period one burst begins every period, &gt; 0 @return this */
        public Builder period(Duration period) {
            Objects.requireNonNull(period, "period");
            if (period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("period must be > 0, was " + period);
            }
            this.period = period;
            return this;
        }

        /** @param offset delay of the first burst after the start, &gt;= 0 @return this */
        public Builder offset(Duration offset) {
            Objects.requireNonNull(offset, "offset");
            if (offset.isNegative()) {
                throw new IllegalArgumentException("offset must be >= 0, was " + offset);
            }
            this.offset = offset;
            return this;
        }

        /** @return the burner; fails when burn exceeds period */
        public CpuBurner build() {
            if (burn.compareTo(period) > 0) {
                throw new IllegalArgumentException("burn (" + burn + ") must not exceed period (" + period + ")");
            }
            return new CpuBurner(this);
        }
    }
}
