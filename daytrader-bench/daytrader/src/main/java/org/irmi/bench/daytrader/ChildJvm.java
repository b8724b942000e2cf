package org.irmi.bench.daytrader;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A JVM started as a child process of this one, on this JVM's {@code java}: a DayTrader tier, or
 * one process of an experiment (a server, a client, a stress process). Made by {@link #builder},
 * optionally behind a command prefix, at a lower priority ({@code nice}), pinned to CPUs
 * ({@code taskset}) and under a {@link CpuQuota}.
 *
 * <p>It tells this JVM it is ready in one of two ways, chosen with {@link Output}:
 * <ul>
 *   <li>{@link Output#LINES}: it speaks a line protocol. It writes one-word-prefixed lines on stdout
 *       ({@code IOR <ior>} when ready, {@code STAT ...} samples, {@code RESULT ...} summaries), which
 *       this JVM reads ({@link #awaitLine}, {@link #linesWith}, {@link #onLine}) and copies, with its
 *       stderr, to the log file; it takes commands such as {@code stop} on stdin ({@link #send}).</li>
 *   <li>{@link Output#LOG_FILE} or {@link Output#STDERR_INHERITED}: its output is not read here; it
 *       writes a properties file when ready ({@link #awaitReadyFile}).</li>
 * </ul>
 * Either way its standard input stays a pipe held by this JVM: a child that watches it (the
 * DayTrader tiers' {@code --watch-stdin}) exits when it closes, so it dies with this JVM even when
 * that is killed. A {@code taskset} or {@code nice} that is not installed is left out (and said on
 * stderr): the child runs unpinned, or at normal priority.
 *
 * <p>THREADING: for {@link Output#LINES}, one reader thread per child consumes its output, and the
 * line listeners run on it. Everything else may be called from any thread.
 */
public final class ChildJvm implements AutoCloseable {

    /** Where a child's stdout and stderr go, which says how it reports that it is ready. */
    public enum Output {
        /** Read line by line here (the line protocol), and copied to the log file after the command. */
        LINES,
        /** Straight to the log file; readiness through a ready file. */
        LOG_FILE,
        /** stderr to this JVM's stderr, stdout discarded; readiness through a ready file. */
        STDERR_INHERITED
    }

    private static final int TAIL_LINES = 30;

    private final String name;
    private final Process process;
    private final Output output;
    private final Path logFile;
    private final PrintWriter lineLog;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<String, CompletableFuture<String>> firstByPrefix = new ConcurrentHashMap<>();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    ChildJvm(String name, Process process, Output output, Path logFile, PrintWriter lineLog) {
        this.name = name;
        this.process = process;
        this.output = output;
        this.logFile = logFile;
        this.lineLog = lineLog;
        if (output == Output.LINES) {
            Thread reader = new Thread(this::readOutput, "child-" + name);
            reader.setDaemon(true);
            reader.start();
        }
    }

    /**
     * @param name      names the child in errors (and, for {@link Output#LINES}, its reader thread),
     *                  e.g. {@code "DayTrader backend"} or {@code "slow-client-irmi-1-primary"}
     * @param mainClass the class whose {@code main} the child runs
     */
    public static ChildJvmBuilder builder(String name, Class<?> mainClass) {
        return new ChildJvmBuilder(name, mainClass);
    }

    private void readOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lineLog.println(line);
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
            lineLog.println("# output closed: " + e.getMessage());
        } finally {
            lineLog.println("# exited");
            lineLog.flush();
        }
    }

    /** @return the name given to {@link #builder} */
    public String name() {
        return name;
    }

    /** @return whether the process still runs */
    public boolean alive() {
        return process.isAlive();
    }

    /** @return the operating system's process id */
    public long pid() {
        return process.pid();
    }

    /**
     * Waits until the child has written {@code ready} (atomically) and returns its properties.
     *
     * @param timeout how long the child has to get ready
     * @throws IOException when the child exits first, or is not ready in time; the message quotes
     *                     the last 30 lines of its output
     */
    public Properties awaitReadyFile(Path ready, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(ready)) {
            if (!process.isAlive()) {
                throw new IOException("the " + name + " exited with status " + process.exitValue() + " before it was ready; "
                        + "its log (" + logFile + "):\n" + tail(TAIL_LINES));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the " + name + " was not ready within " + timeout.toSeconds()
                        + " s; its log (" + logFile + "):\n" + tail(TAIL_LINES));
            }
            Thread.sleep(100); // polling a file the child writes atomically; bounded by the deadline above
        }
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(ready)) {
            props.load(in);
        }
        return props;
    }

    /**
     * Waits for the first line starting with {@code prefix + " "} (or equal to {@code prefix}) and
     * returns the rest of it. Only for {@link Output#LINES}.
     *
     * @throws IllegalStateException when the child exits or the time runs out first (with its last
     *                               lines), or when its output is not read here
     */
    public String awaitLine(String prefix, long timeoutMillis) throws InterruptedException {
        requireLines();
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
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        throw new IllegalStateException(name + " did not print '" + prefix + "' within " + timeoutMillis
                + " ms. Last output:\n" + tail(15));
    }

    /** Adds a listener for every later stdout line (on the reader thread). Only for {@link Output#LINES}. */
    public void onLine(Consumer<String> listener) {
        requireLines();
        listeners.add(listener);
    }

    /** @return every stdout line so far that starts with {@code prefix + " "}, without the prefix */
    public List<String> linesWith(String prefix) {
        requireLines();
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith(prefix + " ")) {
                out.add(line.substring(prefix.length() + 1));
            }
        }
        return out;
    }

    private void requireLines() {
        if (output != Output.LINES) {
            throw new IllegalStateException(name + "'s output is not read here (" + output + "): start it with Output.LINES");
        }
    }

    /** @return the last {@code n} output lines (read here, or from the log file), for error messages */
    public String tail(int n) {
        List<String> all;
        if (output == Output.LINES) {
            all = new ArrayList<>(lines);
        } else {
            try {
                all = Files.readAllLines(logFile);
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }
        return String.join("\n", all.subList(Math.max(0, all.size() - n), all.size()));
    }

    /** Sends a line to the child's stdin (line-protocol children read commands such as {@code stop}). */
    public void send(String command) throws IOException {
        process.getOutputStream().write((command + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /**
     * Stops the child if it runs. It is asked first: a {@code stop} line on its stdin for
     * {@link Output#LINES}, else SIGTERM; after {@code graceMillis} it is terminated (SIGTERM, 2 s
     * more, for a child asked on stdin), then killed. When this thread is interrupted, the child is
     * killed at once and the interrupt is kept.
     */
    public void stop(long graceMillis) {
        try {
            if (process.isAlive()) {
                boolean askedOnStdin = output == Output.LINES;
                if (askedOnStdin) {
                    try {
                        send("stop");
                    } catch (IOException ignored) {
                        // already closing
                    }
                } else {
                    process.destroy();
                }
                boolean exited = process.waitFor(graceMillis, TimeUnit.MILLISECONDS);
                if (!exited && askedOnStdin) {
                    process.destroy();
                    exited = process.waitFor(2, TimeUnit.SECONDS);
                }
                if (!exited) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
            if (lineLog != null) {
                Thread.sleep(50); // let the reader thread log the last lines
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            if (lineLog != null) {
                lineLog.flush();
            }
        }
    }

    /** {@link #stop stop(3000)}. */
    @Override
    public void close() {
        stop(3000);
    }

    /** The class path with every entry made absolute, so children started elsewhere still find it. */
    static String absolute(String classPath) {
        StringBuilder sb = new StringBuilder();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                sb.append(sb.length() == 0 ? "" : File.pathSeparator).append(Path.of(entry).toAbsolutePath());
            }
        }
        return sb.toString();
    }
}
