package org.irmi.bench.experiments;

/**
 * The harm a goal needs plain JacORB to show in the same run before an I-RMI result counts: an
 * isolation result means something only when the baseline is hurt. Its figure is measured on plain
 * JacORB over the same trials as the goal.
 *
 * @param description what the factor is, e.g. "stressed RTT / unloaded RTT on plain JacORB"
 * @param plain the factor measured on plain JacORB, per trial
 * @param bound what the median must meet for the harm to count as shown, e.g. {@code >= 2}
 */
public record Harm(String description, Spread plain, Bound bound) {

    /** @return whether plain JacORB's median shows the harm */
    public boolean shown() {
        return bound.test(plain.median());
    }
}
