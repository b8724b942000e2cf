package org.irmi.bench.echo.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.irmi.bench.echo.OrbVariant;

/**
 * A variant's echo server in a process of its own, stopped with SIGTERM (then SIGKILL after 10 s):
 * {@code org.irmi.bench.echo.EchoServer} in a JVM started from this JVM's class path, or the
 * omniORB C++ {@code echo_server} for the {@code omniorb} variant.
 */
public final class ServerProcess implements AutoCloseable {

    /** JVM options of every server, so variants differ only by their ORB properties. */
    public static final List<String> JVM_OPTIONS = List.of("-Xmx1g", "-XX:+UseG1GC",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            // Isolation events (edges, episodes, non-proceed decisions, SLA reloads) are logged at INFO,
            // only when they happen: the server log then shows whether any point triggered.
            "-Dorg.slf4j.simpleLogger.log.org.irmi.orb.isolation=info",
            "-Dorg.slf4j.simpleLogger.log.org.irmi.isolation=info");

    private final String variantSpec;
    private final Process process;
    private final Path iorFile;
    private final IorInfo ior;
    private final Path statsFile;

    private ServerProcess(String variantSpec, Process process, Path iorFile, IorInfo ior, Path statsFile) {
        this.variantSpec = variantSpec;
        this.process = process;
        this.iorFile = iorFile;
        this.ior = ior;
        this.statsFile = statsFile;
    }

    /**
     * Starts the server of {@code variant} the way the benchmark does and waits for its IOR.
     *
     * @param variant      the variant; its platform decides which server runs
     * @param variantSpec  for a JVM server, what {@code --orb} gets (a built-in name or NAME=BASE,...)
     * @param programs     the omniORB programs, for the C++ server
     * @param workDir      where the IOR file and the server's log go
     * @param startTimeout how long to wait for the IOR
     * @throws IllegalStateException when it exits or does not publish its IOR in time, with its log
     */
    public static ServerProcess start(OrbVariant variant, String variantSpec, NativeClients programs, Path workDir,
                                      Duration startTimeout) throws IOException {
        if (variant.isJvm()) {
            return start(variantSpec, variant.name(), workDir, startTimeout);
        }
        Files.createDirectories(workDir);
        Path iorFile = workDir.resolve(variant.name() + ".ior");
        List<String> cmd = new ArrayList<>(List.of(programs.server().toString(), "-ior-file", iorFile.toString(),
                "-host", "127.0.0.1", "-port", "0"));
        cmd.addAll(variant.omniOrbArgs());
        return launch(cmd, variantSpec, variant.name(), iorFile, workDir, null, startTimeout);
    }

    /**
     * Starts a JVM server and waits until its IOR file appears.
     *
     * @param variantSpec  what {@code --orb} gets: a built-in name or NAME=BASE,key=value,...
     * @param workDir      where the IOR file and the server's log go
     * @param startTimeout how long to wait for the IOR
     * @throws IllegalStateException when it exits or does not publish its IOR in time, with its log
     */
    public static ServerProcess start(String variantSpec, String name, Path workDir, Duration startTimeout)
            throws IOException {
        Files.createDirectories(workDir);
        Path iorFile = workDir.resolve(name + ".ior");
        Path stats = workDir.resolve(name + ".heap");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(JVM_OPTIONS);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.irmi.bench.echo.EchoServer",
                "--orb", variantSpec, "--ior-file", iorFile.toString(), "--stats-file", stats.toString()));
        return launch(cmd, variantSpec, name, iorFile, workDir, stats, startTimeout);
    }

    private static ServerProcess launch(List<String> cmd, String variantSpec, String name, Path iorFile, Path workDir,
                                        Path stats, Duration startTimeout) throws IOException {
        Path log = workDir.resolve(name + "-server.log");
        Files.deleteIfExists(iorFile);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + startTimeout.toNanos();
        try {
            while (!Files.exists(iorFile)) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("echo server '" + name + "' exited with " + p.exitValue()
                            + "; its log (" + log + "):\n" + Files.readString(log));
                }
                if (System.nanoTime() > deadline) {
                    p.destroyForcibly();
                    throw new IllegalStateException("echo server '" + name + "' published no IOR within "
                            + startTimeout.toSeconds() + " s; its log (" + log + "):\n" + Files.readString(log));
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + name, e);
        }
        try {
            return new ServerProcess(variantSpec, p, iorFile, IorInfo.parse(Files.readString(iorFile)), stats);
        } catch (IllegalArgumentException e) {
            p.destroyForcibly();
            throw new IllegalStateException("echo server '" + name + "' wrote an unusable IOR: " + e.getMessage(), e);
        }
    }

    /** The server's process id. */
    public long pid() {
        return process.pid();
    }

    /** The IOR file. */
    public Path iorFile() {
        return iorFile;
    }

    /** The parsed IOR (host, port, key). */
    public IorInfo ior() {
        return ior;
    }

    /** The heap the server held after its last garbage collection, KiB; -1 when not known yet or not a JVM. */
    public long heapAfterGcKb() {
        return statsFile == null ? -1 : HeapStats.read(statsFile);
    }

    /** The file the server keeps its heap figures in; null for a server that is not a JVM. */
    public Path statsFile() {
        return statsFile;
    }

    /** What {@code --orb} was given. */
    public String variantSpec() {
        return variantSpec;
    }

    /** True while the server runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
