/**
 * The isolation points of I-RMI and the adaptation-module SPI, independent of any ORB.
 *
 * <p>An isolation point observes the calls that pass it through small views ({@link
 * org.irmi.isolation.OutgoingCall}, {@link org.irmi.isolation.IncomingRequest}), detects a
 * performance problem from windowed evidence, asks an {@link org.irmi.isolation.AdaptationModule}
 * for a {@link org.irmi.isolation.Decision}, and the hook that called it enforces that decision.
 * Every decision other than a plain proceed is published as a {@link
 * org.irmi.isolation.DecisionEvent} and counted in Micrometer.
 *
 * <p>The three points: {@link org.irmi.isolation.SlowClientPoint} (client side, before argument
 * marshalling), {@link org.irmi.isolation.PoisonMessagePoint} (server reader thread, after the
 * request header is parsed) and {@link org.irmi.isolation.QosCrosstalkPoint} (the selector's read
 * budgets). {@link org.irmi.isolation.IsolationRuntime} builds all of them.
 */
package org.irmi.isolation;
