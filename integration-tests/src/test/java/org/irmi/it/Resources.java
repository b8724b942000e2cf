package org.irmi.it;

import java.util.ArrayList;
import java.util.List;

import org.omg.CORBA.ORB;

/**
 * What one test run opened: ORBs and clean-up actions. {@link #close} runs the actions in reverse
 * order, then destroys the ORBs, and leaves the holder empty for another run.
 */
final class Resources implements AutoCloseable {
    private final List<ORB> orbs = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    /** Destroyed at {@link #close}. */
    ORB track(ORB orb) {
        orbs.add(orb);
        return orb;
    }

    /** Run at {@link #close}, before the ORBs are destroyed, last added first. */
    void onClose(AutoCloseable action) {
        closeables.add(action);
    }

    @Override
    public void close() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        Nodes.destroy(orbs.toArray(new ORB[0]));
        orbs.clear();
        closeables.clear();
    }
}
