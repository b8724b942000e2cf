/**
 * Glue between the I-RMI ORB's hooks and the isolation points: {@link org.irmi.orb.isolation.OrbIsolation}
 * reads the SLA named by the {@code irmi.sla} property, builds the isolation runtime with its
 * adaptation modules, feeds it from the ORB's hooks and transport, and attaches load reports to
 * replies. It plugs itself into the ORB as an {@link org.irmi.orb.OrbExtension}
 * ({@link org.irmi.orb.isolation.IsolationExtension}); the ORB's own packages do not know it. See docs/orb.md.
 */
package org.irmi.orb.isolation;
