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
 *
 * <p>THREADS: any thread, as GlassFish's.
 */
public final class IrmiUtil extends com.sun.corba.ee.impl.javax.rmi.CORBA.Util {

    private final Map<Tie, FilteringTie> ties = Collections.synchronizedMap(new WeakHashMap<>());
    private volatile FilteringValueHandler valueHandler;

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
            ValueFilters.refused(className, "not allowed by the value filter");
            throw new ClassNotFoundException(className + " refused by the I-RMI value filter");
        }
        return super.loadClass(className, null, loader); // codebase URLs sent by clients are ignored
    }
}
