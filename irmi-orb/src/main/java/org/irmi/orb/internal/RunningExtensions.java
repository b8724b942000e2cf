package org.irmi.orb.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import org.irmi.orb.IrmiORB;
import org.irmi.orb.OrbExtension;
import org.omg.CORBA.INITIALIZE;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link OrbExtension}s running on one ORB: started together, found by type, closed once.
 * Not for applications.
 *
 * <p>THREAD-SAFE: {@link #close()} from any thread, more than once; each extension is closed by the
 * first call only.
 */
public final class RunningExtensions {

    private static final Logger LOG = LoggerFactory.getLogger(RunningExtensions.class);

    private final AtomicReference<List<OrbExtension.Running>> running = new AtomicReference<>(List.of());

    /**
     * Starts every extension on the class path ({@code META-INF/services/org.irmi.orb.OrbExtension}).
     *
     * @throws INITIALIZE when one cannot start; those already started are closed again
     */
    public void start(IrmiORB orb, UnaryOperator<String> settings) {
        start(orb, settings, () -> ServiceLoader.load(OrbExtension.class, OrbExtension.class.getClassLoader()).iterator());
    }

    /** As {@link #start(IrmiORB, UnaryOperator)}, with the extensions given (tests). */
    void start(IrmiORB orb, UnaryOperator<String> settings, Iterable<OrbExtension> extensions) {
        List<OrbExtension.Running> started = new ArrayList<>();
        OrbExtension current = null;
        try {
            for (OrbExtension e : extensions) {
                current = e;
                e.start(orb, settings).ifPresent(started::add);
            }
        } catch (INITIALIZE e) {
            closeAll(started);
            throw e;
        } catch (RuntimeException | ServiceConfigurationError e) {
            closeAll(started);
            INITIALIZE init = new INITIALIZE(e instanceof ServiceConfigurationError
                    ? "I-RMI cannot load an ORB extension listed in META-INF/services/" + OrbExtension.class.getName()
                            + " on the class path: " + e.getMessage()
                    : "I-RMI ORB extension " + (current == null ? "" : current.getClass().getName() + " ")
                            + "failed to start: " + e);
            init.initCause(e);
            throw init;
        }
        running.set(List.copyOf(started));
    }

    /** The running extension of {@code type}, if one started. */
    public <T> Optional<T> find(Class<T> type) {
        for (OrbExtension.Running r : running.get()) {
            if (type.isInstance(r)) {
                return Optional.of(type.cast(r));
            }
        }
        return Optional.empty();
    }

    /** Closes the running extensions, last started first; later calls find none left to close. */
    public void close() {
        closeAll(running.getAndSet(List.of()));
    }

    private static void closeAll(List<OrbExtension.Running> started) {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (RuntimeException e) {
                // the ORB is going away: one extension's failure must not keep the others running
                LOG.warn("closing I-RMI extension {} failed", started.get(i), e);
            }
        }
    }
}
