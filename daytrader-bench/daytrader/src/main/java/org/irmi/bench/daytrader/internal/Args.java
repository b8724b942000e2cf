package org.irmi.bench.daytrader.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code --name value} command-line options. Unknown options and missing values are errors naming
 * the option and listing the known ones.
 */
public final class Args {
    private final Map<String, String> values = new HashMap<>();

    private Args() {
    }

    /** Parses {@code args}; {@code flags} take no value (present means "true"). */
    public static Args parse(String[] args, Set<String> known, Set<String> flags) {
        Args a = new Args();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name;
            String value;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(2, eq);
                value = arg.substring(eq + 1);
            } else if (arg.startsWith("--")) {
                name = arg.substring(2);
                if (flags.contains(name)) {
                    value = "true";
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new IllegalArgumentException("option --" + name + " needs a value");
                }
            } else {
                throw new IllegalArgumentException("unexpected argument '" + arg + "'; options are --" + String.join(", --", known));
            }
            if (!known.contains(name) && !flags.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name + "; options are --" + String.join(", --", known)
                        + (flags.isEmpty() ? "" : ", --" + String.join(", --", flags)));
            }
            a.values.put(name, value);
        }
        return a;
    }

    public String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public int getInt(String name, int fallback, int min) {
        String v = values.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min) {
                throw new IllegalArgumentException("--" + name + " must be >= " + min + ", was " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, was '" + v + "'");
        }
    }
}
