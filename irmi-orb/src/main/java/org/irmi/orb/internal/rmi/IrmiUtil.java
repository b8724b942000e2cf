package org.irmi.orb.internal.rmi;

import java.rmi.Remote;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import javax.rmi.CORBA.Tie;
import javax.rmi.CORBA.ValueHandler;

/**
 * The {@code javax.rmi.CORBA.Util} delegate I-RMI installs: GlassFish ORB 5.0.0's, with the
 * {@link ValueFilter} put in front of everything that reads a client's values:
 * <ul>
 *   <li>{@link #getTie} returns a {@link FilteringTie} around GlassFish's tie, and registers the
 *       value classes reachable from the object's Remote interfaces as allowed;</li>
 *   <li>{@link #createValueHandler} returns GlassFish's value handler behind a
 *       {@link FilteringValueHandler};</li>
 *   <li>{@link #loadClass}, while a server reads its arguments, refuses what the filter does not
 *       allow before loading it, and ignores the codebase URL the client sent.</li>
 * </ul>
 * It also writes I-RMI's dynamic stubs ({@link IrmiRemoteStub}) as the references they stand for,
 * so that a reference received from one server can be passed on, in arguments and in results. For
 * that it is also GlassFish's own {@code Util.getInstance()}, which GlassFish's method marshallers
 * call directly (not through {@code javax.rmi.CORBA.Util}).
 *
 * <p>THREADS: any thread, as GlassFish's.
 */
public final class IrmiUtil extends com.sun.corba.ee.impl.javax.rmi.CORBA.Util {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(IrmiUtil.class);

    private final Map<Tie, FilteringTie> ties = Collections.synchronizedMap(new WeakHashMap<>());
    private volatile FilteringValueHandler valueHandler;

    /** Made by {@code javax.rmi.CORBA.Util}, once per JVM; becomes GlassFish's {@code Util.getInstance()} too. */
    public IrmiUtil() {
        SerialFilterHook.install(); // before the first ObjectInputStream RMI-IIOP builds: the factory can be set then
        GlassFishLogBridge.install(); // GlassFish's value reading errors: a rate-limited line, not a stack trace each
        Class<com.sun.corba.ee.impl.javax.rmi.CORBA.Util> glassfish = com.sun.corba.ee.impl.javax.rmi.CORBA.Util.class;
        try {
            java.lang.invoke.VarHandle instance = java.lang.invoke.MethodHandles.privateLookupIn(glassfish,
                    java.lang.invoke.MethodHandles.lookup()).findStaticVarHandle(glassfish, "instance", glassfish);
            synchronized (glassfish) { // getInstance() is static synchronized
                instance.set(this);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("GlassFish's Util.getInstance() stays GlassFish's ({}): references received as I-RMI dynamic"
                    + " stubs cannot be passed on", e.toString());
        }
    }

    @Override
    public Tie getTie(Remote target) {
        Tie inner = super.getTie(target);
        if (inner == null) {
            return null;
        }
        return ties.computeIfAbsent(inner, t -> {
            ValueFilters.exported(target.getClass());
            return new FilteringTie(t);
        });
    }

    @Override
    public void unexportObject(Remote target) throws java.rmi.NoSuchObjectException {
        Tie inner = super.getTie(target);
        FilteringTie wrapper = inner == null ? null : ties.remove(inner);
        if (wrapper != null) {
            try {
                wrapper.deactivate();
            } catch (java.rmi.NoSuchObjectException | RuntimeException notActive) {
                // GlassFish's unexport below reports what it must
            }
        }
        super.unexportObject(target);
    }

    @Override
    public void writeRemoteObject(org.omg.CORBA.portable.OutputStream out, Object obj) {
        if (obj instanceof IrmiRemoteStub stub) {
            out.write_Object(stub.corbaReference());
            return;
        }
        super.writeRemoteObject(out, obj);
    }

    @Override
    public void writeAbstractObject(org.omg.CORBA.portable.OutputStream out, Object obj) {
        if (obj instanceof IrmiRemoteStub stub) {
            ((org.omg.CORBA_2_3.portable.OutputStream) out).write_abstract_interface(stub.corbaReference());
            return;
        }
        super.writeAbstractObject(out, obj);
    }

    @Override
    public ValueHandler createValueHandler() {
        FilteringValueHandler h = valueHandler;
        if (h == null) {
            h = new FilteringValueHandler(super.createValueHandler());
            valueHandler = h;
        }
        return h;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class loadClass(String className, String remoteCodebase, ClassLoader loader)
            throws ClassNotFoundException {
        ValueReadScope scope = ValueReadScope.current();
        if (scope == null) {
            return super.loadClass(className, remoteCodebase, loader);
        }
        if (!scope.filter.allows(className, null)) {
            scope.refuse(ValueRefusal.CLASS, className, "not allowed by the value filter");
            throw new ClassNotFoundException(className + " refused by the I-RMI value filter");
        }
        return super.loadClass(className, null, loader); // codebase URLs sent by clients are ignored
    }
}
