package org.irmi.bench.experiments.internal;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The child JVMs of one experiment run, stopped together (last started first) when the run ends,
 * whatever happened.
 */
public final class Children implements AutoCloseable {

    private final Deque<ChildJvm> started = new ArrayDeque<>();

    /** Registers a started child and returns it. */
    public ChildJvm add(ChildJvm child) {
        started.push(child);
        return child;
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
    public void close() throws InterruptedException {
        while (!started.isEmpty()) {
            started.pop().stop(3000);
        }
    }
}
