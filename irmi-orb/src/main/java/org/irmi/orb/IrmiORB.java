package org.irmi.orb;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.UnaryOperator;

import org.irmi.orb.internal.ForwardingORB;
import org.irmi.orb.internal.OrbRegistry;
import org.irmi.orb.internal.RmiSetup;
import org.irmi.orb.internal.RunningExtensions;

/**
 * The drop-in I-RMI ORB. Setting {@code org.omg.CORBA.ORBClass=org.irmi.orb.IrmiORB} and
 * {@code org.omg.CORBA.ORBSingletonClass=org.irmi.orb.IrmiORBSingleton} is the whole switch.
 *
 * <p>JacORB's {@code org.jacorb.orb.ORB} is a final class, so this ORB is a thin front: on
 * {@code ORB.init} it starts a JacORB ORB with I-RMI's {@link #DEFAULTS} added for every key the
 * user has set neither as an ORB property nor as a system property, and forwards every ORB
 * operation to it ({@link ForwardingORB}; only shutdown and destroy do more here). Object
 * references, POAs and servants are JacORB's own. I-RMI's ORB initializer has the selector
 * transport take over IIOP in the ORB's list of transports. The defaults size
 * the POA queue and pool for 1,000 concurrent callers, and install the interceptors behind
 * {@link #hooks()}. Then it starts the {@link OrbExtension}s on the class path, such as the isolation
 * points of {@code irmi.sla}, and stops them on shutdown or destroy. Loading this class also sets
 * the RMI-IIOP system properties (see {@link RmiSetup}) unless they are set.
 *
 * <p>THREADING: as JacORB's ORB; {@link #hooks()} and {@link #transport()} from any thread.
 */
public class IrmiORB extends ForwardingORB {

    /** ORB initializer property that installs the hook interceptors (always set). */
    public static final String INITIALIZER_PROPERTY = "org.omg.PortableInterceptor.ORBInitializerClass.irmi";

    /** Defaults I-RMI supplies; each applies only when the user has not set the key. */
    public static final Map<String, String> DEFAULTS;

    static {
        RmiSetup.installSystemProperties();
        Map<String, String> d = new LinkedHashMap<>();
        // Not jacorb.transport.factories: I-RMI's ORB initializer takes over IIOP in whatever list
        // JacORB resolves (TransportTakeover), so a server's other transports stay.
        // JacORB's queue_max default of 100 makes 90% of 1,000 concurrent callers fail with
        // TRANSIENT; shedding load is the SLA's decision, not an accident of a default.
        d.put("jacorb.poa.queue_max", "20000");
        d.put("jacorb.poa.queue_min", "10");
        d.put("jacorb.poa.queue_wait", "off");
        // min = max: JacORB ends pool threads above min on release, which churns threads.
        d.put("jacorb.poa.thread_pool_min", "32");
        d.put("jacorb.poa.thread_pool_max", "32");
        DEFAULTS = Map.copyOf(d);
    }

    /** How long an orderly shutdown waits for requests in flight, in milliseconds. */
    public static final long SHUTDOWN_DRAIN_MILLIS = 5000;

    private final IrmiHooks hooks = new IrmiHooks();
    private volatile IrmiTransport transport;
    private org.jacorb.orb.ORB jacorb;
    private final RunningExtensions extensions = new RunningExtensions();
    private boolean attached;
    private volatile org.omg.CORBA.INITIALIZE startFailure;

    /** Created by {@code ORB.init}; applications do not call this. */
    public IrmiORB() {
        super();
    }

    @Override
    protected void set_parameters(String[] args, Properties props) {
        Properties p = effectiveProperties(props);
        String instance = OrbRegistry.reserve(this);
        p.setProperty(OrbRegistry.INSTANCE_PROPERTY, instance);
        try {
            jacorb = (org.jacorb.orb.ORB) org.omg.CORBA.ORB.init(args, p);
        } finally {
            OrbRegistry.bind(instance, this, jacorb);
        }
        UnaryOperator<String> settings = key -> p.getProperty(key, System.getProperty(key));
        try {
            configureHooks(settings);
            extensions.start(this, settings);
        } catch (org.omg.CORBA.INITIALIZE e) {
            jacorb.destroy();
            OrbRegistry.unbind(jacorb);
            throw e;
        }
    }

    /**
     * I-RMI inside JacORB's own ORB class: called by I-RMI's ORB initializer (before JacORB's
     * {@code ORB.init} returns) when the application created {@code org.jacorb.orb.ORB} itself.
     * The returned object is the ORB's I-RMI API ({@link #of(org.omg.CORBA.ORB)}); the application
     * keeps using JacORB's ORB. Not for applications.
     *
     * @throws org.omg.CORBA.INITIALIZE when an {@code irmi.*} setting is invalid
     */
    public static IrmiORB attach(org.jacorb.orb.ORB jacorb) {
        IrmiORB irmi = new IrmiORB();
        irmi.jacorb = jacorb;
        irmi.attached = true;
        irmi.configureHooks(key -> jacorb.getConfiguration().getAttribute(key, null));
        OrbRegistry.bind(null, irmi, jacorb);
        return irmi;
    }

    /**
     * Starts the {@link OrbExtension}s of an ORB {@linkplain #attach attached} to JacORB's ORB, from
     * JacORB's configuration; called by I-RMI's ORB initializer. A failure is kept: the ORB's server
     * side then refuses to start with it ({@link #startFailure()}), because JacORB ignores exceptions
     * of ORB initializers. Not for applications.
     */
    public void startAttachedExtensions() {
        try {
            extensions.start(this, key -> jacorb.getConfiguration().getAttribute(key, null));
        } catch (org.omg.CORBA.INITIALIZE e) {
            startFailure = e;
            org.slf4j.LoggerFactory.getLogger(IrmiORB.class).error("{}; this ORB will not serve requests", e.getMessage());
        }
    }

    /** Why this ORB's I-RMI settings could not be used, if they could not (JacORB's ORB class only). */
    public Optional<org.omg.CORBA.INITIALIZE> startFailure() {
        return Optional.ofNullable(startFailure);
    }

    /** Whether this is the I-RMI API of JacORB's own ORB class (else it is the ORB itself). */
    public boolean attached() {
        return attached;
    }

    private void configureHooks(UnaryOperator<String> settings) {
        String every = settings.apply(IrmiHooks.CPU_SAMPLE_EVERY_PROPERTY);
        if (every != null && !every.isBlank()) {
            try {
                hooks.setCpuSampleEvery(Integer.parseInt(every.trim()));
            } catch (IllegalArgumentException e) { // NumberFormatException included
                throw new org.omg.CORBA.INITIALIZE(IrmiHooks.CPU_SAMPLE_EVERY_PROPERTY
                        + " must be a whole number of at least 1, got \"" + every + "\"");
            }
        }
        String tag = settings.apply(StreamTag.PROPERTY);
        if (tag != null && !tag.isBlank()) {
            try {
                hooks.setDefaultStreamTag(tag.trim());
            } catch (IllegalArgumentException e) {
                throw new org.omg.CORBA.INITIALIZE(StreamTag.PROPERTY + ": " + e.getMessage());
            }
        }
    }

    /** Stops the {@link OrbExtension}s, once (on shutdown or destroy of either ORB class). Not for applications. */
    public void closeExtensions() {
        extensions.close();
    }

    /**
     * What the {@link OrbExtension} of {@code type} runs on this ORB, until the ORB shuts down. The
     * extension's package offers it typed (the isolation points: {@code OrbIsolation.of(orb)}).
     *
     * @return empty when no extension of that type started (its settings left it off) or it stopped
     */
    public <T extends OrbExtension.Running> Optional<T> extension(Class<T> type) {
        return extensions.find(type);
    }

    @Override
    protected void set_parameters(java.applet.Applet app, Properties props) {
        set_parameters(new String[0], props);
    }

    /** The user's properties plus I-RMI's defaults for every key the user did not set anywhere. */
    static Properties effectiveProperties(Properties props) {
        Properties p = new Properties();
        if (props != null) {
            for (String k : props.stringPropertyNames()) {
                p.setProperty(k, props.getProperty(k));
            }
        }
        for (Map.Entry<String, String> e : DEFAULTS.entrySet()) {
            if (!p.containsKey(e.getKey()) && System.getProperty(e.getKey()) == null) {
                p.setProperty(e.getKey(), e.getValue());
            }
        }
        p.setProperty(INITIALIZER_PROPERTY, "org.irmi.orb.internal.IrmiOrbInitializer");
        p.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        return p;
    }

    /** The hooks of this ORB (client call, server request, request cost, reply contexts). */
    public IrmiHooks hooks() {
        return hooks;
    }

    /**
     * The selector transport of this ORB's server side, present once the root POA is resolved
     * (JacORB starts its listeners then).
     */
    public Optional<IrmiTransport> transport() {
        return Optional.ofNullable(transport);
    }

    /** Called by the I-RMI listener when it starts; not for applications. */
    public void attachTransport(IrmiTransport t) {
        this.transport = t;
    }

    /** The JacORB ORB doing the work (for JacORB-specific APIs). */
    @Override
    public org.jacorb.orb.ORB jacorb() {
        return jacorb;
    }

    /**
     * The I-RMI ORB behind {@code orb}: {@code orb} itself, or the I-RMI ORB that owns a JacORB
     * ORB (as returned by {@code _orb()} of its object references). Empty for other ORBs.
     */
    public static Optional<IrmiORB> of(org.omg.CORBA.ORB orb) {
        if (orb instanceof IrmiORB irmi) {
            return Optional.of(irmi);
        }
        return Optional.ofNullable(OrbRegistry.forJacorb(orb));
    }

    /**
     * Shuts the ORB down. With {@code waitForCompletion}, the selector first stops reading new
     * requests and waits (up to {@link #SHUTDOWN_DRAIN_MILLIS}) until the requests already read
     * are answered (and the POAs forget any request JacORB still counts as running after its pool
     * answered it {@code TIMEOUT}); then JacORB destroys the POAs and the listener closes every connection.
     */
    @Override
    public void shutdown(boolean waitForCompletion) {
        IrmiTransport t = transport;
        if (waitForCompletion && t != null && org.irmi.orb.internal.Shutdowns.quiesce(t, SHUTDOWN_DRAIN_MILLIS)) {
            // every request read is answered, so none runs in a POA: JacORB can still count one whose
            // pool answered TIMEOUT, and its POA.destroy would then wait for it for ever
            org.irmi.orb.internal.Shutdowns.forgetFinishedRequests(jacorb);
        }
        jacorb.shutdown(waitForCompletion);
        closeExtensions();
    }

    @Override
    public void destroy() {
        closeExtensions();
        try {
            jacorb.destroy();
        } finally {
            OrbRegistry.unbind(jacorb);
        }
    }

    @Override
    public String toString() {
        return "IrmiORB[" + jacorb + "]";
    }
}
