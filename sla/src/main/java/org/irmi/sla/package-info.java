/**
 * The declarative SLA of an I-RMI service: one YAML file holding the service objectives, the
 * monitors' windows and causal pairs, the three isolation points' thresholds and the adaptation
 * module each one uses. Reference: {@code docs/sla-reference.md}; JSON Schema:
 * {@code docs/sla.schema.json}.
 *
 * <ul>
 *   <li>{@link org.irmi.sla.Sla#load(java.nio.file.Path)} parses and validates a file completely and
 *       returns the immutable root config, or throws {@link org.irmi.sla.SlaException} with every
 *       error as {@code file:line:col: message}.</li>
 *   <li>All config types are immutable records that validate in their constructors
 *       ({@link org.irmi.sla.SlaConfigException} names the SLA key and the bound), with
 *       {@code ofDefaults()}, {@code custom()} builders and {@code DEFAULT_*} constants.
 *       THREAD-SAFE: share them freely.</li>
 *   <li>{@link org.irmi.sla.SlaWatcher} holds the SLA in force in one volatile reference and swaps in
 *       only valid changes (hot reload).</li>
 *   <li>Third-party adaptation modules get their raw parameters with positions
 *       ({@link org.irmi.sla.CustomModuleConfig}, {@link org.irmi.sla.SlaParams}).</li>
 * </ul>
 */
package org.irmi.sla;
