package org.irmi.bench.experiments.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One separate JVM of an experiment (a server, a client, a stress process), optionally pinned to
 * CPUs with {@code taskset}. The child talks back on stdout with one-word-prefixed lines:
 * {@code IOR <ior>} when it is ready, {@code STAT ...} samples, {@code RESULT ...} summaries.
 * Every line (and stderr) is also written to a log file in the results folder.
 *
 * <p>THREADING: one reader thread per child consumes stdout; listeners run on it.
 */
public final class ChildJvm implements AutoCloseable {

    private final String name;
    private final Process process;
    private final PrintWriter log;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<String, CompletableFuture<String>> firstByPrefix = new ConcurrentHashMap<>();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    private ChildJvm(String name, Process process, PrintWriter log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts a child JVM.
     *
     * @param name for logs and errors, e.g. "primary"
     * @param cpus CPU list for taskset (e.g. "0" or "1"), or null for no pinning
     * @param classPath the class path
     * @param jvmOptions -X/-D options
     * @param mainClass the role's main class
     * @param args its arguments
     * @param logDir where {@code <name>.log} goes
     */
    public static ChildJvm start(String name, String cpus, String classPath, List<String> jvmOptions,
                                 Class<?> mainClass, List<String> args, Path logDir) throws IOException {
        return start(name, cpus, 0, classPath, jvmOptions, mainClass, args, logDir);
    }

    /**
     * Starts a child JVM at a lower CPU priority: with {@code niceness} 19 it runs only on the CPU
     * time its CPU's other processes leave, as if it ran on a machine of its own that does not
     * slow them down (the scheduler gives a nice-19 process about 1.5% of a CPU that a nice-0
     * process also wants).
     *
     * @param niceness 0 (normal) to 19 (lowest priority)
     */
    public static ChildJvm start(String name, String cpus, int niceness, String classPath, List<String> jvmOptions,
                                 Class<?> mainClass, List<String> args, Path logDir) throws IOException {
        return start(name, List.of(), cpus, niceness, classPath, jvmOptions, mainClass, args, logDir);
    }

    /**
     * Starts a child JVM behind a command prefix, e.g. {@code ip netns exec <namespace>} to run it
     * in a network namespace of its own.
     *
     * @param prefix the words before the rest of the command (empty for none)
     */
    public static ChildJvm start(String name, List<String> prefix, String cpus, int niceness, String classPath,
                                 List<String> jvmOptions, Class<?> mainClass, List<String> args, Path logDir)
            throws IOException {
        List<String> command = new ArrayList<>(prefix);
        if (niceness != 0 && Files.isExecutable(Path.of("/usr/bin/nice"))) {
            command.addAll(List.of("/usr/bin/nice", "-n", String.valueOf(niceness)));
        }
        if (cpus != null && Files.isExecutable(Path.of("/usr/bin/taskset"))) {
            command.addAll(List.of("/usr/bin/taskset", "-c", cpus));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-Djava.awt.headless=true");
        command.addAll(List.of("-cp", classPath, mainClass.getName()));
        command.addAll(args);
        Path logFile = logDir.resolve(name + ".log");
        PrintWriter log = new PrintWriter(Files.newBufferedWriter(logFile, StandardCharsets.UTF_8), true);
        log.println("# " + String.join(" ", command).replace(classPath, "<classpath>"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        ChildJvm child = new ChildJvm(name, builder.start(), log);
        Thread reader = new Thread(child::readOutput, "child-" + name);
        reader.setDaemon(true);
        reader.start();
        return child;
    }

    private void readOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                log.println(line);
                lines.add(line);
                int space = line.indexOf(' ');
                String prefix = space > 0 ? line.substring(0, space) : line;
                firstByPrefix.computeIfAbsent(prefix, p -> new CompletableFuture<>())
                        .complete(space > 0 ? line.substring(space + 1) : "");
                for (Consumer<String> listener : listeners) {
                    listener.accept(line);
                }
            }
        } catch (IOException e) {
            log.println("# output closed: " + e.getMessage());
        } finally {
            log.println("# exited");
            log.flush();
        }
    }

    /** @return the name given at start */
    public String name() {
        return name;
    }

    /** Adds a listener for every later stdout line. */
    public void onLine(Consumer<String> listener) {
        listeners.add(listener);
    }

    /**
     * Waits for the first line starting with {@code prefix + " "} and returns the rest of it.
     *
     * @throws IllegalStateException when the child exits or the time runs out first (with its last lines)
     */
    public String await(String prefix, long timeoutMillis) throws InterruptedException {
        CompletableFuture<String> future = firstByPrefix.computeIfAbsent(prefix, p -> new CompletableFuture<>());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (System.nanoTime() < deadline) {
            try {
                return future.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (!process.isAlive() && !future.isDone()) {
                    Thread.sleep(200); // let the reader drain the last lines
                    if (!future.isDone()) {
                        throw new IllegalStateException(name + " exited (code " + process.exitValue()
                                + ") before printing '" + prefix + "'. Last output:\n" + tail(15));
                    }
                }
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        throw new IllegalStateException(name + " did not print '" + prefix + "' within " + timeoutMillis
                + " ms. Last output:\n" + tail(15));
    }

    /** @return every stdout line so far that starts with {@code prefix + " "}, without the prefix */
    public List<String> linesWith(String prefix) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith(prefix + " ")) {
                out.add(line.substring(prefix.length() + 1));
            }
        }
        return out;
    }

    /** @return the last {@code n} output lines, for error messages */
    public String tail(int n) {
        List<String> all = new ArrayList<>(lines);
        return String.join("\n", all.subList(Math.max(0, all.size() - n), all.size()));
    }

    /** @return whether the process still runs */
    public boolean alive() {
        return process.isAlive();
    }

    /** @return the operating system's process id */
    public long pid() {
        return process.pid();
    }

    /** Sends a line to the child's stdin (children read commands such as {@code stop}). */
    public void send(String command) throws IOException {
        process.getOutputStream().write((command + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /**
     * Asks the child to stop (a {@code stop} line on stdin), waits up to {@code graceMillis} for it
     * to exit, then destroys it.
     */
    public void stop(long graceMillis) throws InterruptedException {
        if (process.isAlive()) {
            try {
                send("stop");
            } catch (IOException ignored) {
                // already closing
            }
            if (!process.waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
                process.destroy();
                if (!process.waitFor(2, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(2, TimeUnit.SECONDS);
                }
            }
        }
        Thread.sleep(50); // let the reader thread log the last lines
        log.flush();
    }

    @Override
    public void close() throws InterruptedException {
        stop(3000);
    }
}
