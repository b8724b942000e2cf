/**
 * The built-in adaptation modules of I-RMI and their discovery by name.
 *
 * <p>{@link org.irmi.adaptation.AdaptationModules} finds a module by the name an SLA gives it
 * ({@code reject}, {@code short-circuit}, {@code reroute}, {@code defer}, {@code degrade}, {@code
 * throttle}, {@code adaptive-limit}, or a third party's namespaced name) through {@code
 * ServiceLoader}. {@link org.irmi.adaptation.IsolationSetup} builds all isolation points of an
 * SLA. Replicas for rerouting come from a {@link org.irmi.adaptation.ReplicaResolver}, which the
 * ORB implements over the standard CORBA Naming Service.
 */
package org.irmi.adaptation;
