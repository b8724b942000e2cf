/**
 * The I-RMI ORB: a drop-in JacORB 3.9 ORB whose server reads every connection on one
 * non-blocking selector thread, plus the hooks the isolation points use.
 *
 * <p>Switch an application to it with {@code -Dorg.omg.CORBA.ORBClass=org.irmi.orb.IrmiORB
 * -Dorg.omg.CORBA.ORBSingletonClass=org.irmi.orb.IrmiORBSingleton}. Contracts live in this
 * package; implementations in {@code org.irmi.orb.internal}. See {@code docs/orb.md}.
 */
package org.irmi.orb;
