package org.irmi.orb;

import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A part of I-RMI that runs on an ORB when the ORB's settings ask for it, such as the isolation
 * points of {@code irmi.sla}. The ORB's root package knows only this interface: implementations
 * plug themselves in with a {@code META-INF/services/org.irmi.orb.OrbExtension} entry and are found
 * with {@link java.util.ServiceLoader} (through the class loader of this interface) each time an
 * I-RMI ORB starts.
 *
 * <p>When each method runs:
 * <ul>
 *   <li>{@link #start} once per ORB, after its hooks are configured: for {@link IrmiORB} when
 *       JacORB's {@code ORB.init} has returned, inside JacORB's own ORB class from I-RMI's ORB
 *       initializer ({@code post_init}).</li>
 *   <li>{@link Running#close} once, on the ORB's shutdown or destroy, whichever comes first (inside
 *       JacORB's ORB class: when JacORB destroys its interceptors at shutdown).</li>
 * </ul>
 * What an extension starts is found again with {@link IrmiORB#extension(Class)}.
 *
 * <p>THREADING: {@code start} runs on the thread calling {@code ORB.init}; {@code close} on the
 * thread shutting the ORB down or destroying it.
 */
public interface OrbExtension {

    /**
     * Starts this extension on {@code orb} if its settings ask for it.
     *
     * @param orb      the ORB's I-RMI API; its hooks are this extension's to set, its ORB operations
     *                 may be called only once {@code ORB.init} has returned
     * @param settings reads an ORB property, a system property or (inside JacORB's ORB class) a
     *                 JacORB configuration key; null when it is not set
     * @return what now runs on {@code orb}, or empty when the settings leave this extension off
     * @throws org.omg.CORBA.INITIALIZE when a setting is invalid, its message naming the setting and
     *         what it must be; the ORB then does not start (inside JacORB's ORB class: its server side
     *         refuses to start)
     */
    Optional<Running> start(IrmiORB orb, UnaryOperator<String> settings);

    /** What an extension runs on one ORB. */
    interface Running extends AutoCloseable {

        /** Stops what runs (threads, sockets, watched files); called once, never throws. */
        @Override
        void close();
    }
}
