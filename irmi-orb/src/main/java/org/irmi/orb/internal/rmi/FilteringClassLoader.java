package org.irmi.orb.internal.rmi;

/**
 * The context class loader while a server reads its arguments: refuses, before loading, every
 * class the {@link ValueFilter} does not allow, and delegates the rest to the loader it replaces.
 *
 * <p>Why: JacORB loads the class named by a value's repository id through the thread's context
 * class loader first (and through {@code Util.loadClass}, which {@link IrmiUtil} filters, only when
 * that fails), so the filter has to sit in front of that loader for a refused class never to be
 * loaded at all.
 *
 * <p>THREADS: any thread (stateless beyond its parent and filter).
 */
final class FilteringClassLoader extends ClassLoader {

    private final ValueFilter filter;

    FilteringClassLoader(ClassLoader parent, ValueFilter filter) {
        super(parent);
        this.filter = filter;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!filter.allows(name, null)) {
            if (lookingUpResourceBundle()) {
                // not a class a client named: the JDK looking for a log message bundle as a class
                // (GlassFish's loggers, created while a value is read with this loader in place).
                // Not loaded, as any class the filter does not allow, but neither counted nor held
                // against the request being read, which a client did not make fail
                throw new ClassNotFoundException(name + " is not loaded while RMI-IIOP values are read");
            }
            ValueReadScope scope = ValueReadScope.current();
            if (scope != null) {
                scope.refuse(ValueRefusal.CLASS, name, "not allowed by the value filter");
            } else {
                ValueFilters.refused(ValueRefusal.CLASS, name, "not allowed by the value filter");
            }
            throw new ClassNotFoundException(name + " refused by the I-RMI value filter");
        }
        return super.loadClass(name, resolve);
    }

    /** Whether the JDK's resource bundle lookup asks (a refusal's path only: the walk costs microseconds). */
    private static boolean lookingUpResourceBundle() {
        return StackWalker.getInstance().walk(frames -> frames.limit(32)
                .anyMatch(f -> f.getClassName().startsWith("java.util.ResourceBundle")));
    }
}
