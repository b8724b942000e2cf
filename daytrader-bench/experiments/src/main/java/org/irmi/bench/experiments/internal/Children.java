package org.irmi.bench.experiments.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.irmi.bench.daytrader.ChildJvm;
import org.irmi.bench.daytrader.ChildJvmBuilder;

/**
 * The child JVMs of one experiment run, stopped together (last started first) when the run ends,
 * whatever happened. Each speaks the line protocol ({@link ChildJvm.Output#LINES}) and logs to
 * {@code <name>.log} in the run's log folder.
 */
public final class Children implements AutoCloseable {

    private final Path logDir;
    private final Deque<ChildJvm> started = new ArrayDeque<>();

    /** @param logDir where each child's {@code <name>.log} goes */
    public Children(Path logDir) {
        this.logDir = logDir;
    }

    /** Starts {@code child}, reading its output lines into {@code <name>.log}, and registers it. */
    public ChildJvm start(ChildJvmBuilder child) throws IOException {
        ChildJvm started = child.output(ChildJvm.Output.LINES, logDir.resolve(child.name() + ".log")).start();
        this.started.push(started);
        return started;
    }

    /** @return the first child that died, or null when all run */
    public ChildJvm firstDead() {
        for (ChildJvm child : started) {
            if (!child.alive()) {
                return child;
            }
        }
        return null;
    }

    @Override
    public void close() {
        while (!started.isEmpty()) {
            started.pop().stop(3000);
        }
    }
}
