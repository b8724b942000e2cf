package org.irmi.bench.experiments.internal;

import java.io.PrintStream;
import java.util.function.BooleanSupplier;

/**
 * A terminal progress bar for timed phases: {@code [#########.........]  45%  slow-client stressed  13/30 s}.
 * On a terminal it redraws one line with carriage returns; otherwise (logs, CI) it prints a line
 * every 25%.
 *
 * <p>THREADING: used by the runner's main thread only.
 */
public final class ProgressBar {

    private static final int WIDTH = 30;
    private static final long TICK_MILLIS = 250;

    private final PrintStream out;
    private final boolean interactive;

    public ProgressBar(PrintStream out) {
        this.out = out;
        this.interactive = System.console() != null && !"dumb".equals(System.getenv("TERM"));
    }

    /**
     * Shows progress for a phase of fixed length, sleeping in small ticks until it is over or
     * {@code stop} says to end early (for example because a child process died).
     *
     * @param label what runs
     * @param durationMillis the phase length
     * @param stop polled every tick; true ends the phase early
     * @return true when the phase ran its full length
     */
    public boolean during(String label, long durationMillis, BooleanSupplier stop) throws InterruptedException {
        long start = System.nanoTime();
        int lastQuarter = -1;
        while (true) {
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            double fraction = Math.min(1.0, elapsedMillis / (double) durationMillis);
            if (interactive) {
                out.print("\r" + render(label, fraction, elapsedMillis, durationMillis));
                out.flush();
            } else if ((int) (fraction * 4) > lastQuarter) {
                lastQuarter = (int) (fraction * 4);
                out.println("  " + render(label, fraction, elapsedMillis, durationMillis));
            }
            if (elapsedMillis >= durationMillis) {
                break;
            }
            if (stop.getAsBoolean()) {
                finishLine();
                return false;
            }
            Thread.sleep(Math.min(TICK_MILLIS, durationMillis - elapsedMillis));
        }
        finishLine();
        return true;
    }

    /**
     * Shows progress of a phase measured in steps (for example message sizes done), until
     * {@code done} reaches {@code total} or {@code stop} says to end.
     *
     * @param done polled every tick: steps completed so far
     * @return true when all steps completed
     */
    public boolean steps(String label, int total, java.util.function.IntSupplier done, BooleanSupplier stop,
                         long timeoutMillis) throws InterruptedException {
        long start = System.nanoTime();
        int lastShown = -1;
        while (true) {
            int now = Math.min(total, done.getAsInt());
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            if (interactive || now != lastShown) {
                String line = render(label, now / (double) total, elapsedMillis, 0).replaceAll("\\d+/\\d+ s$", now + "/" + total);
                if (interactive) {
                    out.print("\r" + line);
                } else {
                    out.println("  " + line);
                }
                out.flush();
                lastShown = now;
            }
            if (now >= total) {
                finishLine();
                return true;
            }
            if (stop.getAsBoolean() || elapsedMillis > timeoutMillis) {
                finishLine();
                return false;
            }
            Thread.sleep(TICK_MILLIS);
        }
    }

    private void finishLine() {
        if (interactive) {
            out.println();
        }
    }

    static String render(String label, double fraction, long elapsedMillis, long durationMillis) {
        int filled = (int) Math.round(fraction * WIDTH);
        return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] "
                + String.format("%3d%%  %s  %d/%d s", Math.round(fraction * 100), label,
                elapsedMillis / 1000, Math.max(1, Math.round(durationMillis / 1000.0)));
    }
}
