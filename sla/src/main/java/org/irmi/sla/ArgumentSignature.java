package org.irmi.sla;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.irmi.sla.internal.Check;

/**
 * A poison signature over argument bytes, for poison that depends on parameters (the paper's stated
 * limitation). It looks at {@code length} bytes of the request body (the CDR-encoded arguments)
 * starting at byte {@code offset}:
 * <ul>
 *   <li>with a {@code pattern}, a request of a matching operation matches when the pattern occurs in
 *       that byte range; matching requests form their own stream (named {@code operation#name});</li>
 *   <li>without a pattern, the bytes in the range become part of the stream identity
 *       ({@code operation#name=hex}), so each distinct argument value is a separate suspect.</li>
 * </ul>
 *
 * <p>The poison point matches this type itself on the reader thread ({@link #suffix}): the pattern
 * is decoded once, here.
 *
 * <p>Immutable and thread-safe. Equality is by the five fields as written.
 */
public final class ArgumentSignature {

  /** Largest offset. */
  public static final int MAX_OFFSET = 16 * 1024 * 1024;
  /** Largest length. */
  public static final int MAX_LENGTH = 4096;

  private final String name;
  private final OperationPattern operation;
  private final int offset;
  private final int length;
  private final Optional<String> pattern;
  /** The decoded pattern, or null without one. Never handed out. */
  private final byte[] patternBytes;

  /**
   * Validates every field.
   *
   * @param name a unique name for the signature (letters, digits, {@code _ - .})
   * @param operation glob over operations
   * @param offset first byte, 0 to 16777216
   * @param length bytes looked at, 1 to 4096; at least the pattern's length (defaults to it)
   * @param pattern {@code hex:cafe01} or {@code text:SELL} (UTF-8)
   * @throws SlaConfigException naming each invalid field
   */
  public ArgumentSignature(String name, OperationPattern operation, int offset, int length, Optional<String> pattern) {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(pattern, "pattern");
    Check c = new Check();
    c.notBlank("name", name);
    if (name != null && !name.isBlank() && !name.matches("[A-Za-z0-9_.-]+")) {
      c.fail("name", "'" + name + "' may only hold letters, digits, '_', '-' and '.'");
    }
    c.range("offset", offset, 0, MAX_OFFSET);
    c.range("length", length, 1, MAX_LENGTH);
    if (pattern.isPresent()) {
      try {
        int n = decode(pattern.get()).length;
        if (n > length && length >= 1) {
          c.fail("length", "must be at least the pattern's " + n + " bytes, was " + length);
        }
      } catch (IllegalArgumentException e) {
        c.fail("pattern", e.getMessage());
      }
    }
    c.throwIfAny();
    this.name = name;
    this.operation = operation;
    this.offset = offset;
    this.length = length;
    this.pattern = pattern;
    this.patternBytes = pattern.map(ArgumentSignature::decode).orElse(null);
  }

  /** @return the signature's name (letters, digits, {@code _ - .}) */
  public String name() {
    return name;
  }

  /** @return the glob over operations */
  public OperationPattern operation() {
    return operation;
  }

  /** @return the first byte of the body looked at */
  public int offset() {
    return offset;
  }

  /** @return how many bytes are looked at, at least the pattern's length */
  public int length() {
    return length;
  }

  /** @return the pattern as written ({@code hex:...} or {@code text:...}), if set */
  public Optional<String> pattern() {
    return pattern;
  }

  /** The pattern's bytes, if a pattern is set (a copy). */
  public Optional<byte[]> patternBytes() {
    return Optional.ofNullable(patternBytes).map(byte[]::clone);
  }

  /** @return how many body bytes the reader must hand over for this signature: offset plus length. */
  public int bytesNeeded() {
    return offset + length;
  }

  /**
   * The part this signature adds to a request's stream name. READER THREAD: allocates only the
   * returned string.
   *
   * @param body the first bytes of the request body (may be shorter than {@link #bytesNeeded()})
   * @return {@code #name} (a pattern found in the range) or {@code #name=hex} (no pattern: the
   *     range's bytes), or null when the signature does not apply to these bytes
   */
  public String suffix(byte[] body) {
    if (body == null || body.length <= offset) {
      return null;
    }
    int end = Math.min(body.length, offset + length);
    if (patternBytes != null) {
      outer:
      for (int i = offset; i + patternBytes.length <= end; i++) {
        for (int j = 0; j < patternBytes.length; j++) {
          if (body[i + j] != patternBytes[j]) {
            continue outer;
          }
        }
        return "#" + name;
      }
      return null;
    }
    if (end - offset < length) {
      return null;
    }
    StringBuilder sb = new StringBuilder(name.length() + 2 + 2 * length).append('#')
        .append(name).append('=');
    for (int i = offset; i < end; i++) {
      sb.append(Character.forDigit((body[i] >> 4) & 0xF, 16))
          .append(Character.forDigit(body[i] & 0xF, 16));
    }
    return sb.toString();
  }

  /** Decodes {@code hex:...} or {@code text:...}. */
  public static byte[] decode(String pattern) {
    if (pattern.startsWith("hex:")) {
      String hex = pattern.substring(4).replace(" ", "");
      if (hex.isEmpty() || hex.length() % 2 != 0) {
        throw new IllegalArgumentException("'" + pattern + "' needs an even, non-zero number of hex digits");
      }
      try {
        return HexFormat.of().parseHex(hex);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("'" + pattern + "' holds a character that is not a hex digit");
      }
    }
    if (pattern.startsWith("text:")) {
      byte[] b = pattern.substring(5).getBytes(StandardCharsets.UTF_8);
      if (b.length == 0) {
        throw new IllegalArgumentException("'" + pattern + "' is empty after 'text:'");
      }
      return b;
    }
    throw new IllegalArgumentException("'" + pattern + "' must start with 'hex:' or 'text:' (e.g. hex:cafe01 or text:SELL)");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArgumentSignature a && a.name.equals(name) && a.operation.equals(operation)
        && a.offset == offset && a.length == length && a.pattern.equals(pattern);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, operation, offset, length, pattern);
  }

  @Override
  public String toString() {
    return "ArgumentSignature[name=" + name + ", operation=" + operation + ", offset=" + offset
        + ", length=" + length + ", pattern=" + pattern + "]";
  }
}
