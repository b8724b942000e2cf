package org.irmi.adaptation;

import java.util.List;
import java.util.Objects;

/**
 * Finds the replicas of a service for the {@code reroute} module. The implementation looks them up
 * in the standard CORBA Naming Service (JacORB's or omniNames); I-RMI keeps no registry of its own.
 *
 * <p>THREAD SAFETY: may be called from any thread; may block (a remote lookup). The reroute module
 * calls it only on its own refresh thread, never on an ORB reader thread.
 */
@FunctionalInterface
public interface ReplicaResolver {
    /**
     * @param name the SLA's {@code replicas} name in CosNaming string form ({@code
     *             "irmi/orders.replicas"}): one object, or a naming context whose bindings are
     *             the replicas
     * @return the replicas found, in a stable order; empty when none (never null)
     * @throws RuntimeException when the Naming Service cannot be reached (the module keeps the
     *                          last list it had and logs)
     */
    List<Replica> resolve(String name);

    /**
     * The same lookup against another Naming Service: the SLA's {@code namingService} URL of a
     * reroute action ({@code corbaloc:iiop:host:port/NameService}).
     *
     * @return the resolver for that naming service, or empty when this resolver looks only where it
     *         was made to (the default; the ORB's resolver can look anywhere). An SLA that names a
     *         naming service then fails to build with an error naming {@code namingService}.
     */
    default java.util.Optional<ReplicaResolver> at(String namingServiceUrl) {
        return java.util.Optional.empty();
    }

    /**
     * One replica.
     *
     * @param name      its binding name, for logs and events
     * @param reference its object reference ({@code org.omg.CORBA.Object} in an ORB)
     */
    record Replica(String name, Object reference) {
        public Replica {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(reference, "reference");
        }
    }
}
