/**
 * omniORB's Naming Service ({@code omniNames}) as a child process, for the runs that give the
 * reroute module its replicas: the slow-client experiment and the end-to-end tests. The ORB itself
 * never starts it; it only reads a Naming Service through
 * {@link org.irmi.orb.isolation.NamingReplicaResolver}.
 */
package org.irmi.orb.naming;
