package org.irmi.orb.internal.rmi;

import java.util.ArrayList;
import java.util.List;

/**
 * A filter string in the syntax of {@link java.io.ObjectInputFilter.Config#createFilter}, parsed
 * so that it can be applied to a class <em>name</em>, before the class is loaded.
 *
 * <p>Why our own parser: the JDK's filters look at a loaded {@code Class}; RMI-IIOP names the
 * class in the repository id on the wire, and loading it is already more than an attacker should
 * get. The syntax is the JDK's: patterns separated by {@code ;}; {@code maxdepth=}, {@code maxrefs=},
 * {@code maxbytes=}, {@code maxarray=} limits; {@code !} rejects; {@code pkg.*} is a package,
 * {@code pkg.**} a package and its subpackages, {@code prefix*} a name prefix, {@code *} anything;
 * {@code module/pattern} also names the module. The first pattern that matches decides.
 *
 * <p>Immutable; any thread.
 */
record ValuePatterns(List<Rule> rules, long maxDepth, long maxRefs, long maxBytes, long maxArray) {

    /** What the patterns say about a class. */
    enum Verdict { ALLOWED, REJECTED, UNDECIDED }

    /** One pattern: {@code module} may be null (any module). */
    record Rule(boolean reject, String module, String pattern) {

        boolean matches(String className, String moduleName) {
            if (module != null && moduleName != null && !module.equals(moduleName)) {
                return false; // without a module name (before loading) the class part decides
            }
            if (pattern.equals("*")) {
                return true;
            }
            if (pattern.endsWith(".**")) {
                String pkg = pattern.substring(0, pattern.length() - 2);
                return className.startsWith(pkg);
            }
            if (pattern.endsWith(".*")) {
                String pkg = pattern.substring(0, pattern.length() - 1);
                return className.startsWith(pkg) && className.indexOf('.', pkg.length()) < 0;
            }
            if (pattern.endsWith("*")) {
                return className.startsWith(pattern.substring(0, pattern.length() - 1));
            }
            return className.equals(pattern);
        }
    }

    static final ValuePatterns NONE = new ValuePatterns(List.of(), -1, -1, -1, -1);

    /** Parses {@code spec}; null or blank gives {@link #NONE}. Throws IllegalArgumentException naming the bad part. */
    static ValuePatterns parse(String spec) {
        if (spec == null || spec.isBlank()) {
            return NONE;
        }
        List<Rule> rules = new ArrayList<>();
        long depth = -1;
        long refs = -1;
        long bytes = -1;
        long array = -1;
        for (String raw : spec.split(";")) {
            String p = raw.trim();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.indexOf('=');
            if (eq > 0) {
                String name = p.substring(0, eq).trim();
                long v = limit(p, p.substring(eq + 1).trim());
                switch (name) {
                    case "maxdepth" -> depth = v;
                    case "maxrefs" -> refs = v;
                    case "maxbytes" -> bytes = v;
                    case "maxarray" -> array = v;
                    default -> throw new IllegalArgumentException("unknown limit '" + p + "' in value filter");
                }
                continue;
            }
            boolean reject = p.startsWith("!");
            String body = reject ? p.substring(1) : p;
            String module = null;
            int slash = body.indexOf('/');
            if (slash >= 0) {
                module = body.substring(0, slash);
                body = body.substring(slash + 1);
                if (module.isEmpty()) {
                    throw new IllegalArgumentException("empty module name in value filter pattern '" + p + "'");
                }
            }
            if (body.isEmpty()) {
                throw new IllegalArgumentException("empty value filter pattern '" + p + "'");
            }
            rules.add(new Rule(reject, module, body));
        }
        return new ValuePatterns(List.copyOf(rules), depth, refs, bytes, array);
    }

    private static long limit(String part, String value) {
        try {
            long v = Long.parseLong(value);
            if (v < 0) {
                throw new IllegalArgumentException("negative limit '" + part + "' in value filter");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limit '" + part + "' in value filter is not a number", e);
        }
    }

    /** The verdict of the first rule matching the element class of {@code className}. */
    Verdict check(String className, String moduleName) {
        for (Rule r : rules) {
            if (r.matches(className, moduleName)) {
                return r.reject() ? Verdict.REJECTED : Verdict.ALLOWED;
            }
        }
        return Verdict.UNDECIDED;
    }

    /** The stricter of two limits, -1 meaning none. */
    static long stricter(long a, long b) {
        if (a < 0) {
            return b;
        }
        return b < 0 ? a : Math.min(a, b);
    }
}
