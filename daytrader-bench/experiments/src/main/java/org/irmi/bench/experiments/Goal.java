package org.irmi.bench.experiments;

import java.util.Objects;

/**
 * One goal of the experiments, measured over repeated trials: what is asked of I-RMI, the same
 * figure on plain JacORB, and the harm plain JacORB must show in the same run. A goal is reached
 * only when the I-RMI median meets its bound <em>and</em> the harm was shown (when the goal has one).
 *
 * @param experiment the experiment's name, e.g. {@code slow-client}
 * @param id a stable key for {@code results.json}, e.g. {@code stressed-rtt}
 * @param description what is asked, e.g. "stressed RTT / unloaded RTT on I-RMI"
 * @param format the {@link String#format} pattern of one value, e.g. {@code "%.2fx"}
 * @param plain the figure on plain JacORB, or null where it does not apply
 * @param irmi the figure on I-RMI, or null when I-RMI did not run
 * @param bound what the I-RMI median must meet
 * @param harm the harm plain JacORB must show, or null for a goal that has none (a correctness check)
 */
public record Goal(String experiment, String id, String description, String format, Spread plain, Spread irmi,
                   Bound bound, Harm harm) {

    public Goal {
        Objects.requireNonNull(experiment, "experiment");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(bound, "bound");
    }

    /** @return whether the I-RMI median meets the bound */
    public boolean irmiMet() {
        return irmi != null && bound.test(irmi.median());
    }

    /** @return whether the harm was shown on plain JacORB (true for a goal without a harm) */
    public boolean harmShown() {
        return harm == null || harm.shown();
    }

    /** @return whether the goal counts as reached: the I-RMI median meets it and the harm was shown */
    public boolean reached() {
        return irmiMet() && harmShown();
    }

    /** @return the goal with its bound, e.g. "stressed RTT / unloaded on I-RMI <= 1.1" */
    public String statement() {
        return description + " " + bound.symbol();
    }

    /** @return the plain figure as text, "-" where it does not apply */
    public String plainText() {
        return plain == null ? "-" : plain.format(format);
    }

    /** @return the I-RMI figure as text, "not run" when I-RMI did not run */
    public String irmiText() {
        return irmi == null ? "not run" : irmi.format(format);
    }

    /** @return the harm as text: its factor, its bound and whether it was shown, or "-" */
    public String harmText() {
        if (harm == null) {
            return "-";
        }
        return harm.plain().format("%.2f") + " (needs " + harm.bound().symbol() + (harm.shown() ? ", shown)" : ", NOT shown)");
    }

    /** @return "yes", or why not */
    public String verdict() {
        if (reached()) {
            return "yes";
        }
        if (!irmiMet() && !harmShown()) {
            return "NOT reached; harm not shown";
        }
        return irmiMet() ? "NOT reached: harm not shown on plain" : "NOT reached";
    }
}
