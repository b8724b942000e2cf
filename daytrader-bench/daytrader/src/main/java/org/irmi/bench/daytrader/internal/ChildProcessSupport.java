package org.irmi.bench.daytrader.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** What the backend and web tier JVMs share: the ready file, the parent watch, the per-second sampler. */
public final class ChildProcessSupport {
    private ChildProcessSupport() {
    }

    /** Writes {@code values} to {@code file} atomically, so a parent polling it never reads half a file. */
    public static void writeReadyFile(Path file, Map<String, String> values) throws IOException {
        Properties p = new Properties();
        p.putAll(values);
        p.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (var out = Files.newOutputStream(tmp)) {
            p.store(out, "DayTrader tier ready");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * When started with {@code --watch-stdin}, exits the JVM when standard input reaches end of file:
     * the parent holds the pipe, so a parent that dies (even by SIGKILL) takes this tier with it.
     */
    public static void exitWhenParentGoes(boolean enabled) {
        if (!enabled) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                InputStream in = System.in;
                while (in.read() >= 0) {
                    // ignore input; only end of file matters
                }
            } catch (IOException ignored) {
                // treat as end of file
            }
            System.err.println("daytrader: parent process gone, exiting");
            System.exit(0);
        }, "daytrader-parent-watch");
        t.setDaemon(true);
        t.start();
    }

    /** Rolls {@code recorder} at every wall-clock second boundary with this JVM's GC readings. */
    public static ScheduledExecutorService startSampler(TimeSeriesRecorder recorder) {
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "daytrader-sampler");
            t.setDaemon(true);
            return t;
        });
        long nowMillis = System.currentTimeMillis();
        s.scheduleAtFixedRate(() -> recorder.rollWithJvmReadings(System.currentTimeMillis() / 1000 - 1),
                1000 - nowMillis % 1000, 1000, TimeUnit.MILLISECONDS);
        return s;
    }
}
