package org.irmi.bench.echo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import org.irmi.bench.echo.internal.NativeClients;

/**
 * One ORB set-up the echo benchmark measures: a name, the platform its server runs on and the ORB
 * properties that make it, nothing else. A new I-RMI variant (monitoring on every request, every
 * isolation point armed but never triggered, ...) is a new set of properties on top of an existing
 * variant, see {@link OrbVariants#parse(String, Map)}; no code changes.
 *
 * @param name           short name used on the command line and in reports, e.g. {@code irmi}
 * @param description    one line for the report
 * @param platform       what runs the server: a JVM with a Java ORB, or the omniORB C++ server
 * @param orbProperties  on {@link Platform#JVM}, the properties given to {@code ORB.init}, including
 *                       {@code org.omg.CORBA.ORBClass} and {@code org.omg.CORBA.ORBSingletonClass};
 *                       on {@link Platform#OMNIORB_CPP}, omniORB parameters, each given to the
 *                       server as {@code -ORB<key> <value>}
 */
public record OrbVariant(String name, String description, Platform platform, Map<String, String> orbProperties) {

    /** What runs a variant's echo server. */
    public enum Platform {
        /** {@link EchoServer} in a JVM of its own, on the Java ORB its properties name. */
        JVM,
        /** The omniORB C++ echo server ({@code echo_server.cc}), a native process. */
        OMNIORB_CPP
    }

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
        Objects.requireNonNull(platform, "platform");
        if (platform == Platform.JVM && !orbProperties.containsKey(ORB_CLASS)) {
            throw new IllegalArgumentException("variant '" + name + "' must set " + ORB_CLASS);
        }
        orbProperties = Map.copyOf(orbProperties);
    }

    /** A variant whose server runs in a JVM. */
    public OrbVariant(String name, String description, Map<String, String> orbProperties) {
        this(name, description, Platform.JVM, orbProperties);
    }

    /** The ORB class this variant runs, or the native ORB's name ({@code omniORB (C++)}). */
    public String orbClass() {
        return platform == Platform.JVM ? orbProperties.get(ORB_CLASS) : "omniORB (C++)";
    }

    /** True when the server runs in a JVM, so live heap and Java reader threads mean something. */
    public boolean isJvm() {
        return platform == Platform.JVM;
    }

    /** The omniORB command-line options these properties stand for ({@code -ORB<key> <value>} each). */
    public List<String> omniOrbArgs() {
        List<String> args = new ArrayList<>();
        new TreeMap<>(orbProperties).forEach((k, v) -> {
            args.add("-ORB" + k);
            args.add(v);
        });
        return List.copyOf(args);
    }

    /** This variant with more properties on top (later ones win), under a new name. */
    public OrbVariant with(String newName, String newDescription, Map<String, String> extra) {
        Map<String, String> merged = new LinkedHashMap<>(orbProperties);
        merged.putAll(extra);
        return new OrbVariant(newName, newDescription, platform, merged);
    }

    /**
     * True when the server can run here: the ORB class can be loaded (the I-RMI jar may be absent),
     * or, for the omniORB server, the C++ tool chain is installed.
     */
    public boolean isAvailable() {
        if (platform == Platform.OMNIORB_CPP) {
            return NativeClients.unavailableReason().isEmpty();
        }
        try {
            Class.forName(orbClass(), false, OrbVariant.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
