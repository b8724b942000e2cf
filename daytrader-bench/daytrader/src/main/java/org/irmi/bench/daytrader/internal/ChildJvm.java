package org.irmi.bench.daytrader.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.irmi.bench.daytrader.CpuQuota;

/**
 * A DayTrader tier's JVM as a child process of this one: started ({@link #launch}) on this JVM's
 * {@code java}, optionally pinned and limited; waited for ({@link #awaitReady}) until it writes its
 * ready file; stopped ({@link #stop}).
 *
 * <p>A child's standard input stays a pipe held by this JVM; with {@code --watch-stdin} the child
 * exits when it closes, so children die with this JVM even when it is killed.
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * Starts {@code mainClass} in a new JVM.
     *
     * @param cpus          {@code taskset -c} CPUs, or null not to pin
     * @param quota         a CPU share to run it under, or null not to limit
     * @param classPath     the class path; every entry is made absolute
     * @param log           where its standard output and error go, unless {@code inheritOutput}
     * @param inheritOutput its standard error goes to this JVM's (its standard output is discarded)
     */
    public static Process launch(String cpus, CpuQuota quota, List<String> jvmArgs, String classPath, String mainClass,
                                 List<String> args, Path log, boolean inheritOutput) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (cpus != null) {
            cmd.addAll(List.of("taskset", "-c", cpus));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", absolute(classPath), mainClass));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(quota == null ? cmd : quota.wrap(cmd));
        if (inheritOutput) {
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT);
        } else {
            pb.redirectErrorStream(true).redirectOutput(log.toFile());
        }
        // stdin stays a pipe held by this JVM: the children exit when it closes (--watch-stdin).
        return pb.start();
    }

    /** The class path with every entry made absolute, so children started elsewhere still find it. */
    private static String absolute(String classPath) {
        StringBuilder sb = new StringBuilder();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                sb.append(sb.length() == 0 ? "" : File.pathSeparator).append(Path.of(entry).toAbsolutePath());
            }
        }
        return sb.toString();
    }

    /**
     * Waits until the child has written {@code ready} and returns its properties.
     *
     * @param what         the tier's name in errors ({@code backend}, {@code web tier})
     * @param startTimeout how long the child has to get ready
     * @throws IOException when the child exits first, or is not ready in time; the message quotes
     *                     the last 30 lines of {@code log}
     */
    public static Properties awaitReady(Process p, Path ready, Path log, String what, Duration startTimeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (!Files.exists(ready)) {
            if (!p.isAlive()) {
                throw new IOException("the DayTrader " + what + " exited with status " + p.exitValue() + " before it was ready; "
                        + "its log (" + log + "):\n" + tail(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the DayTrader " + what + " was not ready within " + startTimeout.toSeconds()
                        + " s; its log (" + log + "):\n" + tail(log));
            }
            Thread.sleep(100); // polling a file the child writes atomically; bounded by the deadline above
        }
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(ready)) {
            props.load(in);
        }
        return props;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Stops {@code p} if it runs: politely, then forcibly after 10 s. */
    public static void stop(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
