package org.irmi.isolation;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.irmi.sla.Cidr;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.StreamWeight;

/**
 * The compiled form of an SLA {@link StreamWeight}, as the crosstalk point matches it on every
 * connection and request header: a QoS weight for the streams that match: by client address, by object key, or by the stream tag
 * a client puts in a service context. The first matching rule wins.
 *
 * @param match       what is compared
 * @param matcher     the test on the compared value (an address in a CIDR, a glob, an exact tag)
 * @param description the rule as written, for logs
 * @param weight      the relative weight (the SLA's, more than 0 and at most 1000)
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

    /** Null-checks; the weight was checked by the SLA's {@link StreamWeight}. */
    public WeightRule {
        Objects.requireNonNull(match, "match");
        Objects.requireNonNull(matcher, "matcher");
        Objects.requireNonNull(description, "description");
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

    /** @return the rules of the SLA's weights, in order (the first match wins). */
    public static List<WeightRule> of(List<StreamWeight> weights) {
        return weights.stream().map(WeightRule::of).toList();
    }

    /** @return the rule of one SLA weight. */
    public static WeightRule of(StreamWeight w) {
        return switch (w.kind()) {
            case CLIENT -> {
                Cidr cidr = w.cidr();
                yield new WeightRule(Match.CLIENT_ADDRESS, address -> inCidr(cidr, address), w.value(), w.weight());
            }
            case OBJECT_KEY -> glob(Match.OBJECT_KEY, w.objectKeyPattern().glob(), w.weight());
            case TAG -> new WeightRule(Match.TAG, w.value()::equals, w.value(), w.weight());
        };
    }

    private static boolean inCidr(Cidr cidr, String address) {
        // only literal addresses reach here (the ORB passes the peer's IP): no DNS lookup happens
        if (address.isEmpty() || !(Character.isDigit(address.charAt(0)) || address.indexOf(':') >= 0)) {
            return false;
        }
        try {
            return cidr.contains(InetAddress.getByName(address));
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
