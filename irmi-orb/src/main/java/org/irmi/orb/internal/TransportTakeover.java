package org.irmi.orb.internal;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jacorb.config.Configuration;
import org.jacorb.config.JacORBConfiguration;
import org.jacorb.orb.giop.TransportManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * I-RMI's selector transport takes over IIOP in a server's own list of transports and keeps every
 * other transport in it.
 *
 * <p>The list is JacORB's {@code jacorb.transport.factories}, as JacORB resolved it from all its
 * sources (ORB properties over system properties over {@code jacorb.properties} files). The rule:
 * <ul>
 *   <li>every {@code org.jacorb.orb.iiop.IIOPFactories} becomes {@link SelectorFactories}, in its
 *       place;</li>
 *   <li>every other entry stays, in its order ({@code SelectorFactories} itself included); a
 *       duplicate is listed once;</li>
 *   <li>an empty list (the key set nowhere) becomes {@code SelectorFactories} alone, where JacORB
 *       would use {@code IIOPFactories} alone;</li>
 *   <li>a list without IIOP is left as it is (there is nothing to take over).</li>
 * </ul>
 * So {@code IIOPFactories,WIOPFactories} becomes {@code SelectorFactories,WIOPFactories}.
 *
 * <p>Applied by {@link IrmiOrbInitializer#pre_init} to every ORB I-RMI runs in. JacORB's
 * {@link TransportManager} has read the list by then (JacORB configures its managers before it
 * runs ORB initializers) but instantiates the factories only when first asked for them, later, so
 * the takeover replaces the list it read (a private field of JacORB 3.9's {@code TransportManager})
 * and sets the configuration's key to the same list.
 *
 * <p>THREADING: called on the thread that runs {@code ORB.init}.
 */
final class TransportTakeover {

    /** JacORB's key for the transports of an ORB. */
    static final String PROPERTY = "jacorb.transport.factories";
    /** JacORB's IIOP transport, which I-RMI takes over. */
    static final String JACORB_IIOP = "org.jacorb.orb.iiop.IIOPFactories";
    /** I-RMI's IIOP transport: JacORB's with the selector listener. */
    static final String SELECTOR = SelectorFactories.class.getName();

    private static final Logger LOG = LoggerFactory.getLogger(TransportTakeover.class);

    private TransportTakeover() {
    }

    /** The transports an ORB whose configuration lists {@code listed} runs on with I-RMI (pure). */
    static List<String> takeOver(List<String> listed) {
        Set<String> result = new LinkedHashSet<>();
        for (String name : listed) {
            String n = name.trim();
            if (!n.isEmpty()) {
                result.add(n.equals(JACORB_IIOP) ? SELECTOR : n);
            }
        }
        if (result.isEmpty()) {
            result.add(SELECTOR);
        }
        return List.copyOf(result);
    }

    /**
     * Applies {@link #takeOver} to {@code orb}'s transports, before JacORB instantiates them. Where
     * it cannot (a JacORB other than 3.9, or transports already instantiated) it logs an error that
     * names the list to set instead and leaves the ORB on JacORB's transports: JacORB ignores what
     * an ORB initializer throws.
     */
    static void apply(org.jacorb.orb.ORB orb) {
        Configuration config = orb.getConfiguration();
        List<String> listed = config.getAttributeList(PROPERTY);
        List<String> wanted = takeOver(listed);
        if (wanted.equals(listed)) {
            LOG.info("irmi transports: {}", describe(listed, wanted));
            return;
        }
        String joined = String.join(",", wanted);
        TransportManager manager = orb.getTransportManager();
        try {
            if (field(manager, "factoriesList") != null) {
                throw new IllegalStateException("its transports are already instantiated");
            }
            Field names = TransportManager.class.getDeclaredField("factoryClassNames");
            names.setAccessible(true);
            names.set(manager, new ArrayList<>(wanted));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.error("irmi cannot take over IIOP in this JacORB's transports {} ({}); set {}={} as an ORB property",
                    listed, e.toString(), PROPERTY, joined);
            return;
        }
        if (config instanceof JacORBConfiguration c) {
            c.setAttribute(PROPERTY, joined);
        }
        LOG.info("irmi transports: {}", describe(listed, wanted));
    }

    /**
     * What an ORB runs on, as its INFO line says it after {@code "irmi transports: "} (pure): the
     * transports, and JacORB's list where it differs; a list without IIOP is named as one on which
     * the selector transport is not used, so that an operator who switched a server to I-RMI sees
     * why its connections are not the selector's.
     */
    static String describe(List<String> listed, List<String> running) {
        if (!running.equals(listed)) {
            return running + " (JacORB's list: " + (listed.isEmpty() ? "not set, IIOP" : listed) + ")";
        }
        return running + (running.contains(SELECTOR)
                ? " (as listed)"
                : " (as listed: no IIOP to take over, so the selector transport is not used)");
    }

    private static Object field(TransportManager manager, String name) throws ReflectiveOperationException {
        Field f = TransportManager.class.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(manager);
    }
}
