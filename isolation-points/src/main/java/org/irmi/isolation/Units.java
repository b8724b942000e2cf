package org.irmi.isolation;

import java.util.Locale;

/** Parses the unit-bearing strings of SLA parameters ({@code 250ms}, {@code 64KiB}, {@code 80%}). */
final class Units {
    private Units() {
    }

    static long parseNanos(String text, String where) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        // longer suffixes first: "ns", "us" and "ms" all end in "s"
        for (String suffix : new String[]{"ns", "us", "ms", "s", "m", "h"}) {
            if (s.endsWith(suffix)) {
                String num = s.substring(0, s.length() - suffix.length()).trim();
                long factor = switch (suffix) {
                    case "ns" -> 1L;
                    case "us" -> 1_000L;
                    case "ms" -> 1_000_000L;
                    case "s" -> 1_000_000_000L;
                    case "m" -> 60_000_000_000L;
                    default -> 3_600_000_000_000L;
                };
                try {
                    return Math.round(Double.parseDouble(num) * factor);
                } catch (NumberFormatException e) {
                    break;
                }
            }
        }
        throw new IllegalArgumentException(where + " must be a duration like `250ms` or `5s`, was `"
                + text + "`");
    }

    static long parseBytesOrCount(String text, String where) {
        String s = text.trim();
        long factor = 1;
        String[][] units = {{"KiB", "1024"}, {"MiB", "1048576"}, {"GiB", "1073741824"},
                {"KB", "1000"}, {"MB", "1000000"}, {"GB", "1000000000"}, {"B", "1"}};
        for (String[] u : units) {
            if (s.endsWith(u[0])) {
                factor = Long.parseLong(u[1]);
                s = s.substring(0, s.length() - u[0].length()).trim();
                break;
            }
        }
        try {
            return Math.multiplyExact(Long.parseLong(s), factor);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(where + " must be a whole number, optionally with "
                    + "a unit like `64KiB`, was `" + text + "`");
        }
    }

    static double parseDecimal(String text, String where) {
        String s = text.trim();
        try {
            if (s.endsWith("%")) {
                return Double.parseDouble(s.substring(0, s.length() - 1).trim()) / 100.0;
            }
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + " must be a number or a percentage like "
                    + "`80%`, was `" + text + "`");
        }
    }
}
