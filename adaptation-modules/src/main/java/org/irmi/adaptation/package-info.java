/**
 * The built-in adaptation modules of I-RMI and how an SLA action becomes one.
 *
 * <p>{@link org.irmi.adaptation.AdaptationModules} builds the module an SLA action names: a built-in
 * ({@code reject}, {@code short-circuit}, {@code reroute}, {@code defer}, {@code degrade}, {@code
 * throttle}, {@code adaptive-limit}) from its typed config, already checked by the SLA loader, or a
 * third party's namespaced module through its {@code AdaptationModuleProvider}, found by {@code
 * ServiceLoader}. {@link org.irmi.adaptation.IsolationSetup} builds all isolation points of an
 * SLA. Replicas for rerouting come from a {@link org.irmi.adaptation.ReplicaResolver}, which the
 * ORB implements over the standard CORBA Naming Service.
 */
package org.irmi.adaptation;
