package org.irmi.sla;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A glob over names, the SLA's one glob syntax, used wherever I-RMI matches a name: operations,
 * call targets, object keys. {@code *} matches any run of characters (line breaks included),
 * {@code ?} one character, {@code [abc]} / {@code [a-z]} / {@code [!a-z]} one character of a
 * class, and {@code \} escapes the next character. The whole name must match, case-sensitively,
 * as IDL operation names are compared.
 *
 * <p>Immutable and thread-safe. Equality is by the glob text.
 */
public final class OperationPattern {

  /** Matches every name. */
  public static final OperationPattern ANY = of("*");

  private final String glob;
  private final Pattern regex;
  private final boolean literal;
  /** The name matched when {@code literal}: the glob with its escapes removed. */
  private final String literalName;

  private OperationPattern(String glob, Pattern regex, boolean literal, String literalName) {
    this.glob = glob;
    this.regex = regex;
    this.literal = literal;
    this.literalName = literalName;
  }

  /**
   * Compiles a glob.
   *
   * @throws IllegalArgumentException if the glob is empty, has an unclosed or empty {@code [...]}
   *     class, or ends in a lone backslash; the message says which
   */
  public static OperationPattern of(String glob) {
    Objects.requireNonNull(glob, "glob");
    if (glob.isEmpty()) {
      throw new IllegalArgumentException("empty pattern; write an operation name or a glob such as 'get*'");
    }
    if (ANY != null && glob.equals("*")) {
      return ANY;
    }
    StringBuilder re = new StringBuilder();
    StringBuilder name = new StringBuilder();
    boolean literal = true;
    int i = 0;
    while (i < glob.length()) {
      char c = glob.charAt(i);
      switch (c) {
        case '*' -> {
          re.append(".*");
          literal = false;
          i++;
        }
        case '?' -> {
          re.append('.');
          literal = false;
          i++;
        }
        case '\\' -> {
          if (i + 1 >= glob.length()) {
            throw new IllegalArgumentException("bad glob '" + glob + "': ends with a lone '\\'");
          }
          re.append(Pattern.quote(String.valueOf(glob.charAt(i + 1))));
          name.append(glob.charAt(i + 1));
          i += 2;
        }
        case '[' -> {
          int close = glob.indexOf(']', i + 1);
          if (close < 0) {
            throw new IllegalArgumentException(
                "bad glob '" + glob + "': '[' at position " + (i + 1) + " is never closed by ']'");
          }
          String body = glob.substring(i + 1, close);
          boolean negate = body.startsWith("!");
          if (negate) {
            body = body.substring(1);
          }
          if (body.isEmpty()) {
            throw new IllegalArgumentException("bad glob '" + glob + "': empty character class '[]'");
          }
          re.append('[');
          if (negate) {
            re.append('^');
          }
          for (int k = 0; k < body.length(); k++) {
            char b = body.charAt(k);
            if (b == '-' && k > 0 && k < body.length() - 1) {
              if (body.charAt(k - 1) > body.charAt(k + 1)) {
                throw new IllegalArgumentException(
                    "bad glob '" + glob + "': range '" + body.charAt(k - 1) + "-" + body.charAt(k + 1) + "' is reversed");
              }
              re.append('-');
            } else if (Character.isLetterOrDigit(b) || b == '_') {
              re.append(b);
            } else {
              re.append('\\').append(b);
            }
          }
          re.append(']');
          literal = false;
          i = close + 1;
        }
        default -> {
          re.append(Pattern.quote(String.valueOf(c)));
          name.append(c);
          i++;
        }
      }
    }
    return new OperationPattern(glob, Pattern.compile(re.toString(), Pattern.DOTALL), literal, name.toString());
  }

  /** Whether {@code name} matches the whole glob; {@code null} never matches. */
  public boolean matches(String name) {
    if (name == null) {
      return false;
    }
    if (literal) {
      return literalName.equals(name);
    }
    return this == ANY || regex.matcher(name).matches();
  }

  /** Whether the glob has no wildcards (it then names exactly one operation, {@link #literalName()}). */
  public boolean isLiteral() {
    return literal;
  }

  /** The one name a literal glob matches (escapes removed); for a wildcard glob, its literal characters. */
  public String literalName() {
    return literalName;
  }

  /** The glob as written. */
  public String glob() {
    return glob;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OperationPattern p && p.glob.equals(glob);
  }

  @Override
  public int hashCode() {
    return glob.hashCode();
  }

  @Override
  public String toString() {
    return glob;
  }
}
