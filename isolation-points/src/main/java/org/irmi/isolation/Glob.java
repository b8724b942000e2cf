package org.irmi.isolation;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A glob over names: {@code *} matches any run of characters, {@code ?} one character; anything
 * else matches itself. {@code "*"} matches everything. Immutable.
 */
public final class Glob {
    /** Matches every name. */
    public static final Glob ANY = new Glob("*");
    private final String text;
    private final Pattern regex;
    private final boolean literal;

    private Glob(String text) {
        this.text = text;
        this.literal = text.indexOf('*') < 0 && text.indexOf('?') < 0;
        StringBuilder sb = new StringBuilder();
        for (char ch : text.toCharArray()) {
            if (ch == '*') {
                sb.append(".*");
            } else if (ch == '?') {
                sb.append('.');
            } else {
                sb.append(Pattern.quote(String.valueOf(ch)));
            }
        }
        this.regex = literal ? null : Pattern.compile(sb.toString());
    }

    /** @return the glob for {@code text}. */
    public static Glob of(String text) {
        Objects.requireNonNull(text, "glob");
        return text.equals("*") ? ANY : new Glob(text);
    }

    /** @return whether {@code name} matches; null never matches. */
    public boolean matches(String name) {
        if (name == null) {
            return false;
        }
        if (this == ANY) {
            return true;
        }
        return literal ? text.equals(name) : regex.matcher(name).matches();
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Glob g && g.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }
}
