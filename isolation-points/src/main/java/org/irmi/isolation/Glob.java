package org.irmi.isolation;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A glob over names, the SLA's syntax: {@code *} matches any run of characters, {@code ?} one
 * character, {@code [a-z]} / {@code [!0-9]} a class, {@code \} escapes the next character;
 * anything else matches itself. {@code "*"} matches everything. Immutable.
 */
public final class Glob {
    /** Matches every name. */
    public static final Glob ANY = new Glob("*");
    private final String text;
    private final Pattern regex;
    private final boolean literal;

    private Glob(String text) {
        this.text = text;
        this.literal = text.indexOf('*') < 0 && text.indexOf('?') < 0 && text.indexOf('[') < 0
                && text.indexOf('\\') < 0;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '\\' && i + 1 < text.length()) {
                sb.append(Pattern.quote(String.valueOf(text.charAt(++i))));
            } else if (ch == '*') {
                sb.append(".*");
            } else if (ch == '?') {
                sb.append('.');
            } else if (ch == '[' && text.indexOf(']', i + 1) > i + 1) {
                int end = text.indexOf(']', i + 1);
                String cls = text.substring(i + 1, end);
                if (cls.startsWith("!")) {
                    cls = "^" + cls.substring(1);
                }
                sb.append('[').append(cls.replace("\\", "\\\\").replace("[", "\\[")).append(']');
                i = end;
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
