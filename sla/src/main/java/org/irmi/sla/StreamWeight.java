package org.irmi.sla;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import org.irmi.sla.internal.Check;

/**
 * A crosstalk weight for the streams selected by exactly one key: a client address block
 * ({@code client: 10.0.0.0/8}), an object key glob ({@code objectKey: "*Orders*"}, matched against the
 * object key's bytes read as ISO-8859-1), or a service-context tag the client sets ({@code tag: bulk}).
 * The first matching entry of {@code weights} wins.
 *
 * <p>The crosstalk point matches this type itself on every connection and request header
 * ({@link #matches}): the CIDR or glob is parsed once, here, and never again on the hot path.
 *
 * <p>Immutable and thread-safe. Equality is by {@code kind}, {@code value} and {@code weight}.
 */
public final class StreamWeight {

  /** What selects the stream. YAML keys: {@code client}, {@code objectKey}, {@code tag}. */
  public enum Kind {
    /** The client's IP address (without port), matched against a CIDR block. */
    CLIENT("client"),
    /** The target object key, as ISO-8859-1 text, matched against a glob. */
    OBJECT_KEY("objectKey"),
    /** The I-RMI stream-tag service context, compared exactly. */
    TAG("tag");

    private final String yaml;

    Kind(String yaml) {
      this.yaml = yaml;
    }

    /** The YAML key. */
    public String yaml() {
      return yaml;
    }
  }

  private final Kind kind;
  private final String value;
  private final double weight;
  /** The parsed block of a CLIENT weight, else null. */
  private final Cidr cidr;
  /** The compiled glob of an OBJECT_KEY weight, else null. */
  private final OperationPattern objectKeyPattern;

  /**
   * Validates; a CLIENT value must be a CIDR, an OBJECT_KEY value a glob.
   *
   * @param kind which key selects the stream
   * @param value the CIDR, glob or tag as written
   * @param weight share of reading relative to other active streams, more than 0 and at most 1000
   * @throws SlaConfigException naming each invalid field
   */
  public StreamWeight(Kind kind, String value, double weight) {
    Objects.requireNonNull(kind, "kind");
    Check c = new Check();
    c.notBlank(kind.yaml(), value);
    if (value != null && !value.isBlank()) {
      try {
        switch (kind) {
          case CLIENT -> Cidr.parse(value);
          case OBJECT_KEY -> OperationPattern.of(value);
          case TAG -> {
            if (!value.matches("[A-Za-z0-9_.:-]{1,64}")) {
              c.fail("tag", "'" + value + "' must be 1 to 64 letters, digits or '_ . : -'");
            }
          }
        }
      } catch (IllegalArgumentException e) {
        c.fail(kind.yaml(), e.getMessage());
      }
    }
    c.rangeExclusiveMin("weight", weight, 0, 1000);
    c.throwIfAny();
    this.kind = kind;
    this.value = value;
    this.weight = weight;
    this.cidr = kind == Kind.CLIENT ? Cidr.parse(value) : null;
    this.objectKeyPattern = kind == Kind.OBJECT_KEY ? OperationPattern.of(value) : null;
  }

  /** @return which key selects the stream */
  public Kind kind() {
    return kind;
  }

  /** @return the CIDR, glob or tag as written */
  public String value() {
    return value;
  }

  /** @return share of reading relative to other active streams, more than 0 and at most 1000 */
  public double weight() {
    return weight;
  }

  /** The client block of a CLIENT weight. */
  public Cidr cidr() {
    if (kind != Kind.CLIENT) {
      throw new IllegalStateException("not a client weight: " + kind);
    }
    return cidr;
  }

  /** The object key glob of an OBJECT_KEY weight. */
  public OperationPattern objectKeyPattern() {
    if (kind != Kind.OBJECT_KEY) {
      throw new IllegalStateException("not an object key weight: " + kind);
    }
    return objectKeyPattern;
  }

  /**
   * Whether the compared value of this weight's {@link #kind()} selects the stream. Never does a
   * DNS lookup: a CLIENT weight matches only a literal IP address. Any thread.
   *
   * @param compared the client's IP address (without port) for CLIENT, the object key as
   *     ISO-8859-1 text for OBJECT_KEY, the stream tag for TAG; null never matches
   */
  public boolean matches(String compared) {
    if (compared == null) {
      return false;
    }
    return switch (kind) {
      case CLIENT -> inCidr(compared);
      case OBJECT_KEY -> objectKeyPattern.matches(compared);
      case TAG -> value.equals(compared);
    };
  }

  private boolean inCidr(String address) {
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

  @Override
  public boolean equals(Object o) {
    return o instanceof StreamWeight w && w.kind == kind && w.value.equals(value)
        && Double.compare(w.weight, weight) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, value, weight);
  }

  @Override
  public String toString() {
    return "StreamWeight[kind=" + kind + ", value=" + value + ", weight=" + weight + "]";
  }
}
