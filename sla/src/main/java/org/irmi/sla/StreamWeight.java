package org.irmi.sla;

import java.util.Objects;
import org.irmi.sla.internal.Check;

/**
 * A crosstalk weight for the streams selected by exactly one key: a client address block
 * ({@code client: 10.0.0.0/8}), an object key glob ({@code objectKey: "*Orders*"}, matched against the
 * object key's bytes read as ISO-8859-1), or a service-context tag the client sets ({@code tag: bulk}).
 * The first matching entry of {@code weights} wins.
 *
 * @param kind which key selects the stream
 * @param value the CIDR, glob or tag as written
 * @param weight share of reading relative to other active streams, more than 0 and at most 1000
 */
public record StreamWeight(Kind kind, String value, double weight) {

  /** What selects the stream. YAML keys: {@code client}, {@code objectKey}, {@code tag}. */
  public enum Kind {
    CLIENT("client"), OBJECT_KEY("objectKey"), TAG("tag");

    private final String yaml;

    Kind(String yaml) {
      this.yaml = yaml;
    }

    /** The YAML key. */
    public String yaml() {
      return yaml;
    }
  }

  /** Validates; a CLIENT value must be a CIDR, an OBJECT_KEY value a glob. */
  public StreamWeight {
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
  }

  /** The client block of a CLIENT weight. */
  public Cidr cidr() {
    if (kind != Kind.CLIENT) {
      throw new IllegalStateException("not a client weight: " + kind);
    }
    return Cidr.parse(value);
  }

  /** The object key glob of an OBJECT_KEY weight. */
  public OperationPattern objectKeyPattern() {
    if (kind != Kind.OBJECT_KEY) {
      throw new IllegalStateException("not an object key weight: " + kind);
    }
    return OperationPattern.of(value);
  }
}
