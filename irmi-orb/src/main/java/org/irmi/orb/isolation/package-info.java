/**
 * Glue between the I-RMI ORB's hooks and the isolation points: {@link org.irmi.orb.isolation.OrbIsolation}
 * reads the SLA named by the {@code irmi.sla} property, builds the isolation runtime with its
 * adaptation modules, feeds it from the ORB's hooks and transport, and attaches load reports to
 * replies. See docs/orb.md.
 */
package org.irmi.orb.isolation;
