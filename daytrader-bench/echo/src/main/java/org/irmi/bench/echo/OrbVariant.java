package org.irmi.bench.echo;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One ORB set-up the echo benchmark measures: a name and the ORB properties that make it, nothing
 * else. A new I-RMI variant (monitoring on every request, every isolation point armed but never
 * triggered, ...) is a new set of properties on top of an existing variant, see
 * {@link OrbVariants#parse(String, Map)}; no code changes.
 *
 * @param name           short name used on the command line and in reports, e.g. {@code irmi}
 * @param description    one line for the report
 * @param orbProperties  the properties given to {@code ORB.init}, including
 *                       {@code org.omg.CORBA.ORBClass} and {@code org.omg.CORBA.ORBSingletonClass}
 */
public record OrbVariant(String name, String description, Map<String, String> orbProperties) {

    /** The property that selects the ORB implementation. */
    public static final String ORB_CLASS = "org.omg.CORBA.ORBClass";
    /** The property that selects the ORB singleton implementation. */
    public static final String ORB_SINGLETON_CLASS = "org.omg.CORBA.ORBSingletonClass";

    public OrbVariant {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9._+-]*")) {
            throw new IllegalArgumentException("variant name '" + name
                    + "' must be letters, digits, '.', '_', '+' or '-'");
        }
        Objects.requireNonNull(description, "description");
        if (!orbProperties.containsKey(ORB_CLASS)) {
            throw new IllegalArgumentException("variant '" + name + "' must set " + ORB_CLASS);
        }
        orbProperties = Map.copyOf(orbProperties);
    }

    /** The ORB class this variant runs. */
    public String orbClass() {
        return orbProperties.get(ORB_CLASS);
    }

    /** This variant with more properties on top (later ones win), under a new name. */
    public OrbVariant with(String newName, String newDescription, Map<String, String> extra) {
        Map<String, String> merged = new LinkedHashMap<>(orbProperties);
        merged.putAll(extra);
        return new OrbVariant(newName, newDescription, merged);
    }

    /** True when the ORB class can be loaded here (the I-RMI jar may be absent). */
    public boolean isAvailable() {
        try {
            Class.forName(orbClass(), false, OrbVariant.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
