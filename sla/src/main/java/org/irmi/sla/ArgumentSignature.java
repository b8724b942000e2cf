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
 *   <li>without a pattern, the bytes in the range become part of the stream identity, so each
 *       distinct argument value is a separate suspect.</li>
 * </ul>
 *
 * @param name a unique name for the signature (letters, digits, {@code _ - .})
 * @param operation glob over operations
 * @param offset first byte, 0 to 16777216
 * @param length bytes looked at, 1 to 4096; at least the pattern's length (defaults to it)
 * @param pattern {@code hex:cafe01} or {@code text:SELL} (UTF-8)
 */
public record ArgumentSignature(String name, OperationPattern operation, int offset, int length, Optional<String> pattern) {

  /** Largest offset. */
  public static final int MAX_OFFSET = 16 * 1024 * 1024;
  /** Largest length. */
  public static final int MAX_LENGTH = 4096;

  /** Validates every field. */
  public ArgumentSignature {
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
  }

  /** The pattern's bytes, if a pattern is set. */
  public Optional<byte[]> patternBytes() {
    return pattern.map(ArgumentSignature::decode);
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
}
