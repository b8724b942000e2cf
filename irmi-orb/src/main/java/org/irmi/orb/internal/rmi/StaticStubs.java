package org.irmi.orb.internal.rmi;

import java.lang.reflect.Constructor;
import java.util.Optional;

import javax.rmi.CORBA.Stub;

import org.omg.CORBA.portable.Delegate;

/**
 * The static RMI-IIOP stubs that applications compiled with {@code rmic -iiop} ship: for a Remote
 * interface {@code p.Name}, the class {@code p._Name_Stub}, a {@link Stub} implementing it. Looked
 * up once per interface, in the interface's own class loader (an application class, never a name
 * read from the wire).
 *
 * <p>THREADS: any thread.
 */
final class StaticStubs {

    private static final ClassValue<Optional<Constructor<? extends Stub>>> STUBS = new ClassValue<>() {
        @Override
        protected Optional<Constructor<? extends Stub>> computeValue(Class<?> type) {
            return find(type);
        }
    };

    private StaticStubs() {
    }

    /**
     * A new static stub of {@code type} calling through {@code delegate}, or null when the
     * application has none.
     */
    static Object create(Class<?> type, Delegate delegate) {
        Optional<Constructor<? extends Stub>> c = STUBS.get(type);
        if (c.isEmpty()) {
            return null;
        }
        try {
            Stub stub = c.get().newInstance();
            stub._set_delegate(delegate);
            return stub;
        } catch (ReflectiveOperationException e) {
            throw new ClassCastException("cannot create the static stub of " + type.getName() + ": " + e);
        }
    }

    private static Optional<Constructor<? extends Stub>> find(Class<?> type) {
        String name = type.getName();
        int dot = name.lastIndexOf('.');
        String stubName = name.substring(0, dot + 1) + "_" + name.substring(dot + 1) + "_Stub";
        ClassLoader loader = type.getClassLoader();
        try {
            Class<?> c = Class.forName(stubName, false, loader);
            if (!Stub.class.isAssignableFrom(c) || !type.isAssignableFrom(c)) {
                return Optional.empty();
            }
            return Optional.of(c.asSubclass(Stub.class).getConstructor());
        } catch (ClassNotFoundException | NoSuchMethodException | LinkageError e) {
            return Optional.empty();
        }
    }
}
