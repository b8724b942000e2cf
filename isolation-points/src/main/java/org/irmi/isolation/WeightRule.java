package org.irmi.isolation;

import java.util.Objects;
import java.util.function.Predicate;
import org.irmi.sla.OperationPattern;

/**
 * A QoS weight for the streams that match: by client address, by object key, or by the stream tag
 * a client puts in a service context. The first matching rule wins.
 *
 * @param match       what is compared
 * @param matcher     the test on the compared value (an address in a CIDR, a glob, an exact tag)
 * @param description the rule as written, for logs
 * @param weight      the relative weight, more than 0 and at most 1000
 */
public record WeightRule(Match match, Predicate<String> matcher, String description, double weight) {
    /** What a rule compares. */
    public enum Match {
        /** The client's IP address (without port). */
        CLIENT_ADDRESS,
        /** The target object key, as ISO-8859-1 text. */
        OBJECT_KEY,
        /** The I-RMI stream-tag service context. */
        TAG
    }

    public WeightRule {
        Objects.requireNonNull(match, "match");
        Objects.requireNonNull(matcher, "matcher");
        Objects.requireNonNull(description, "description");
        if (!(weight > 0 && weight <= 1000)) {
            throw new IllegalArgumentException("crosstalk weight for " + match + " `" + description
                    + "` must be more than 0 and at most 1000, was " + weight);
        }
    }

    /**
     * @return a rule matching a glob ({@code *}, {@code ?}, classes) over the compared value
     * @throws IllegalArgumentException if the glob is malformed (see {@link OperationPattern#of})
     */
    public static WeightRule glob(Match match, String glob, double weight) {
        OperationPattern g = OperationPattern.of(glob);
        return new WeightRule(match, g::matches, glob, weight);
    }

    /** @return whether {@code value} matches; null never matches. */
    public boolean matches(String value) {
        return value != null && matcher.test(value);
    }
}
