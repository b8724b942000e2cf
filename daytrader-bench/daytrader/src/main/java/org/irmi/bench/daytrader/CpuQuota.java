package org.irmi.bench.daytrader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A CPU bandwidth limit for one child process, made with a Linux control group: the process (and
 * every thread it starts) gets at most {@code cores} CPUs' worth of time per scheduling period, as
 * if it ran on a slower machine of its own.
 *
 * <p>Why: the paper's backend was a 2004 server (two 2.8 GHz Xeons, each a fraction of one modern
 * core). Pinning a process to a core of today gives it several times that CPU; a quota gives the
 * backend its own, smaller share, alike for every ORB. The period is short (10 ms) so the limit
 * acts like a slower CPU, not like a process that runs at full speed and then stops for most of a
 * 100 ms period.
 *
 * <p>Needs a writable cgroup file system: the v1 {@code cpu} controller at
 * {@code /sys/fs/cgroup/cpu} or a v2 hierarchy with {@code cpu.max} at {@code /sys/fs/cgroup}.
 * {@link #create} says why not when it cannot make one.
 */
public final class CpuQuota {

    static final long PERIOD_MICROS = 10_000;
    private static final Path V1_ROOT = Path.of("/sys/fs/cgroup/cpu");
    private static final Path V2_ROOT = Path.of("/sys/fs/cgroup");

    private final Path dir;
    private final double cores;

    private CpuQuota(Path dir, double cores) {
        this.dir = dir;
        this.cores = cores;
    }

    /** The result of {@link #create}: a quota, or the reason there is none. */
    public record Outcome(Optional<CpuQuota> quota, String reason) {
    }

    /**
     * Makes (or reuses) the control group {@code irmi-<name>} limited to {@code cores} CPUs.
     *
     * @param cores a positive number of CPUs, e.g. 0.5
     */
    public static Outcome create(String name, double cores) {
        if (!(cores > 0) || cores > 64) {
            throw new IllegalArgumentException("cores must be in (0, 64] but is " + cores);
        }
        if (!name.matches("[A-Za-z0-9-]+")) {
            throw new IllegalArgumentException("name must be letters, digits and '-' but is " + name);
        }
        long quota = Math.max(1000, Math.round(PERIOD_MICROS * cores));
        try {
            if (Files.isRegularFile(V1_ROOT.resolve("cpu.cfs_quota_us"))) {
                Path dir = Files.createDirectories(V1_ROOT.resolve("irmi-" + name));
                Files.writeString(dir.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_MICROS));
                Files.writeString(dir.resolve("cpu.cfs_quota_us"), Long.toString(quota));
                return new Outcome(Optional.of(new CpuQuota(dir, cores)), "");
            }
            if (Files.isRegularFile(V2_ROOT.resolve("cgroup.controllers"))
                    && Files.readString(V2_ROOT.resolve("cgroup.controllers")).contains("cpu")) {
                Path dir = Files.createDirectories(V2_ROOT.resolve("irmi-" + name));
                Files.writeString(dir.resolve("cpu.max"), quota + " " + PERIOD_MICROS);
                return new Outcome(Optional.of(new CpuQuota(dir, cores)), "");
            }
            return new Outcome(Optional.empty(), "no cgroup cpu controller at " + V1_ROOT + " or " + V2_ROOT);
        } catch (IOException | SecurityException e) {
            return new Outcome(Optional.empty(), "cannot write a cgroup under /sys/fs/cgroup (" + e + "); run as root");
        }
    }

    /** How many CPUs' worth the process gets. */
    public double cores() {
        return cores;
    }

    /** For reports, e.g. "0.50 CPU (cgroup irmi-poison-backend, 5000 us per 10000 us)". */
    public String describe() {
        return String.format(Locale.ROOT, "%.2f CPU (cgroup %s, %d us per %d us)", cores, dir.getFileName(),
                Math.max(1000, Math.round(PERIOD_MICROS * cores)), PERIOD_MICROS);
    }

    /** How many scheduling periods the group was stopped at its quota so far (0 where the kernel does not say). */
    public long throttledPeriods() {
        try {
            for (String line : Files.readAllLines(dir.resolve("cpu.stat"))) {
                String[] kv = line.trim().split("\\s+");
                if (kv.length == 2 && kv[0].equals("nr_throttled")) {
                    return Long.parseLong(kv[1]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    /**
     * {@code command} wrapped so that it runs inside this group: a shell moves itself into the group,
     * then {@code exec}s the command (so the process, its pid and its exit status are the command's).
     */
    public List<String> wrap(List<String> command) {
        List<String> out = new ArrayList<>(List.of("/bin/sh", "-c", "echo $$ > \"$0\" && exec \"$@\"",
                dir.resolve("cgroup.procs").toString()));
        out.addAll(command);
        return out;
    }
}
