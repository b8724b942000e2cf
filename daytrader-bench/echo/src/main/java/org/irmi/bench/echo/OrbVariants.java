package org.irmi.bench.echo;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The built-in ORB variants and the parser for new ones.
 *
 * <p>Both built-ins share the POA settings that make the comparison fair: a POA thread pool with
 * min = max (JacORB ends the threads above min when they go idle, so min &lt; max churns threads
 * under load), a request queue long enough for 1,000 concurrent callers (JacORB's default of 100
 * answers {@code TRANSIENT} past it), and room for 4,000 connection reader threads in stock JacORB
 * (its default cap is 1,000). JacORB's idle reader threads are left at its default (5 kept), so a
 * trial with few connections after one with many does not count the many's threads; within a
 * trial the connections stay open, so no reader thread is created or ended while it is measured.
 *
 * <p>The {@link #omniorb()} variant is the server a user would pick instead of a Java ORB: omniORB's
 * C++ server in its thread-pool mode with as many threads as the Java variants' POA has.
 */
public final class OrbVariants {

    /** Dispatch threads of the POA in every built-in variant (JacORB's default maximum). */
    public static final int POA_THREADS = 20;
    /** Queued requests the POA accepts before it answers TRANSIENT. */
    public static final int POA_QUEUE_MAX = 10_000;
    /**
     * Stock JacORB's cap on server connection reader threads; on I-RMI the same cap on connections
     * served at once. Above the largest connection count the benchmark takes (10,000), so no cell
     * meets it.
     */
    public static final int MAX_RECEPTOR_THREADS = 12_000;

    private OrbVariants() {
    }

    /** Properties every built-in variant sets. */
    public static Map<String, String> fairnessProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("jacorb.poa.thread_pool_min", Integer.toString(POA_THREADS));
        p.put("jacorb.poa.thread_pool_max", Integer.toString(POA_THREADS));
        p.put("jacorb.poa.queue_max", Integer.toString(POA_QUEUE_MAX));
        p.put("jacorb.connection.server.max_receptor_threads", Integer.toString(MAX_RECEPTOR_THREADS));
        return p;
    }

    /** Stock JacORB 3.9: one reader thread per connection. */
    public static OrbVariant jacorb() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(OrbVariant.ORB_CLASS, "org.jacorb.orb.ORB");
        p.put(OrbVariant.ORB_SINGLETON_CLASS, "org.jacorb.orb.ORBSingleton");
        p.putAll(fairnessProperties());
        return new OrbVariant("jacorb", "stock JacORB 3.9, thread per connection", p);
    }

    /** The I-RMI drop-in ORB: one selector thread reads every connection. */
    public static OrbVariant irmi() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(OrbVariant.ORB_CLASS, "org.irmi.orb.IrmiORB");
        p.put(OrbVariant.ORB_SINGLETON_CLASS, "org.irmi.orb.IrmiORBSingleton");
        p.putAll(fairnessProperties());
        return new OrbVariant("irmi", "I-RMI ORB, one selector reader thread", p);
    }

    /**
     * omniORB's C++ echo server in thread-pool mode ({@code threadPerConnectionPolicy=0}): a pool of
     * {@link #POA_THREADS} threads watches every connection and runs the calls, as a user configures
     * omniORB for thousands of connections (its default, a thread per connection, switches to the
     * pool by itself at 10,000 connections). Not a default variant: name it with
     * {@code --variants jacorb,irmi,omniorb}. Variants on top of it take omniORB parameters, e.g.
     * {@code --variant omniorb-tpc=omniorb,threadPerConnectionPolicy=1}.
     */
    public static OrbVariant omniorb() {
        Map<String, String> p = new LinkedHashMap<>();
        // 0: thread-pool mode, pooled threads watch every connection and run the calls.
        p.put("threadPerConnectionPolicy", "0");
        p.put("maxServerThreadPoolSize", Integer.toString(POA_THREADS));
        return new OrbVariant("omniorb", "omniORB C++ server, thread pool of " + POA_THREADS,
                OrbVariant.Platform.OMNIORB_CPP, p);
    }

    /** Every variant the benchmark knows by name: the built-ins, then {@link #omniorb()}. */
    public static Map<String, OrbVariant> known() {
        Map<String, OrbVariant> m = builtIns();
        m.put("omniorb", omniorb());
        return m;
    }

    /** The built-in Java variants by name, in report order; the benchmark's default. */
    public static Map<String, OrbVariant> builtIns() {
        Map<String, OrbVariant> m = new LinkedHashMap<>();
        m.put("jacorb", jacorb());
        m.put("irmi", irmi());
        return m;
    }

    /**
     * Parses {@code NAME=BASE[,key=value]...}: variant NAME is variant BASE with the given ORB
     * properties on top. Example: {@code irmi-mon=irmi,irmi.monitoring.per_request=true}.
     *
     * @param spec   the text from the command line
     * @param known  variants BASE may name
     * @throws IllegalArgumentException with what is wrong and the expected form
     */
    public static OrbVariant parse(String spec, Map<String, OrbVariant> known) {
        String form = " (expected NAME=BASE[,key=value]..., e.g. irmi-mon=irmi,irmi.monitoring=true)";
        int eq = spec.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("variant '" + spec + "' has no NAME=" + form);
        }
        String name = spec.substring(0, eq).trim();
        String[] parts = spec.substring(eq + 1).split(",");
        String baseName = parts[0].trim();
        OrbVariant base = known.get(baseName);
        if (base == null) {
            throw new IllegalArgumentException("variant '" + name + "': unknown base '" + baseName
                    + "'; known: " + String.join(", ", known.keySet()) + form);
        }
        Map<String, String> extra = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            String kv = parts[i].trim();
            int at = kv.indexOf('=');
            if (at <= 0) {
                throw new IllegalArgumentException("variant '" + name + "': property '" + kv
                        + "' is not key=value" + form);
            }
            extra.put(kv.substring(0, at).trim(), kv.substring(at + 1).trim());
        }
        String description = extra.isEmpty() ? base.description()
                : base.description() + " + " + extra;
        return base.with(name, description, extra);
    }
}
