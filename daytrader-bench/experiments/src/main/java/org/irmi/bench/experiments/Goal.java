package org.irmi.bench.experiments;

/**
 * One goal of the issue, read from the report: what is asked, the plain JacORB figure, the I-RMI
 * figure and whether the goal was reached.
 *
 * @param experiment the experiment's name
 * @param description what is asked, e.g. "stressed RTT on I-RMI <= 1.1x unloaded"
 * @param plain the comparable figure on plain JacORB, formatted, or "-" when not applicable
 * @param irmi the figure on I-RMI, formatted, or "not run" when I-RMI could not run
 * @param reached whether I-RMI met the goal
 */
public record Goal(String experiment, String description, String plain, String irmi, boolean reached) {
}
