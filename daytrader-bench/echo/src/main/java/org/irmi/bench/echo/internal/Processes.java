package org.irmi.bench.echo.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Runs a program to its end with a time limit, its stdout and stderr merged. */
public final class Processes {

    /**
     * What a finished program printed.
     *
     * @param exitCode  its exit code
     * @param output    stdout and stderr, merged
     */
    public record Result(int exitCode, String output) {
    }

    private Processes() {
    }

    /**
     * Runs {@code command} in {@code dir}; kills it (and its children) after {@code timeout}.
     *
     * @throws IllegalStateException when it cannot start or runs out of time, with its output so far
     */
    public static Result run(List<String> command, Path dir, Duration timeout) {
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir == null ? null : dir.toFile())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        }
        CompletableFuture<String> out = drain(p.getInputStream());
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                throw new IllegalStateException(String.join(" ", command) + " ran out of its " + timeout.toSeconds()
                        + " s; output so far:\n" + out.getNow(""));
            }
            return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot read the output of " + command.get(0), e);
        }
    }

    /** Reads a stream to its end on a daemon thread. */
    public static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (in) {
                f.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                f.completeExceptionally(new UncheckedIOException(e));
            }
        }, "drain");
        t.setDaemon(true);
        t.start();
        return f;
    }
}
