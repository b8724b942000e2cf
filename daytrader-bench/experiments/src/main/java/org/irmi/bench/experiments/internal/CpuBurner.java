package org.irmi.bench.experiments.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Other work on a service's machine, scripted: a process that spins a CPU for {@code burnMillis} in
 * every {@code periodMillis} (a browser starting, a build, a backup), pinned with taskset to the
 * CPUs it is given. It runs as a process of its own, as such work does, so the service sees only
 * what the scheduler takes from it. Closing it kills the process.
 */
public final class CpuBurner implements AutoCloseable {

    private final Process process;
    private final String description;

    private CpuBurner(Process process, String description) {
        this.process = process;
        this.description = description;
    }

    /**
     * @param cpus taskset's CPU list (e.g. {@code "1"}), or null for no pinning
     * @param burnMillis how long each burst spins, at least 1
     * @param periodMillis one burst every this long, more than {@code burnMillis}
     * @return the running burner, its first burst starting now
     * @throws IOException when the process cannot start
     */
    public static CpuBurner start(String cpus, long burnMillis, long periodMillis) throws IOException {
        if (burnMillis < 1 || periodMillis <= burnMillis) {
            throw new IllegalArgumentException("burnMillis must be 1 to periodMillis - 1, was " + burnMillis + " of " + periodMillis);
        }
        // coreutils' timeout ends each burst: the inner shell spins on a builtin, with no system calls.
        String loop = "while :; do timeout " + String.format("%.3f", burnMillis / 1000.0) + " sh -c 'while :; do :; done';"
                + " sleep " + String.format("%.3f", (periodMillis - burnMillis) / 1000.0) + "; done";
        List<String> command = new ArrayList<>();
        if (cpus != null) {
            command.addAll(List.of("taskset", "-c", cpus));
        }
        command.addAll(List.of("sh", "-c", loop));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return new CpuBurner(p, "a CPU burner, " + burnMillis / 1000.0 + " s in every " + periodMillis / 1000.0 + " s"
                + (cpus == null ? "" : " on CPU " + cpus));
    }

    /** @return e.g. "a CPU burner, 2.0 s in every 10.0 s on CPU 1" */
    public String describe() {
        return description;
    }

    /** @return the burner's process id */
    public long pid() {
        return process.pid();
    }

    /** @return the CPU time the burner's processes have taken so far, in nanoseconds (-1: unknown) */
    public long cpuNanos() {
        return ProcessCpu.nanosWithDescendants(process.toHandle());
    }

    /** @return whether the burner's process still runs */
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
    }
}
