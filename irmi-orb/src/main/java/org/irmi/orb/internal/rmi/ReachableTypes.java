package org.irmi.orb.internal.rmi;

import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.rmi.Remote;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * The value classes an exported Remote object can legitimately receive: the parameter, return and
 * exception types of its Remote interfaces, and, for each Serializable class among them, its
 * superclasses and the declared types of its serialized fields (with their type arguments), as
 * far as they reach.
 *
 * <p>Why: this is the default allow-list of the {@link ValueFilter}; an application does not have
 * to list its own value classes. Interfaces and abstract types ({@code Serializable},
 * {@code Object}, {@code List}) name no class, so what they hold must be a JDK value class of the
 * defaults or be widened by configuration. JDK classes are left to the default patterns, so that
 * a field of type {@code HashMap} does not allow whatever a {@code HashMap} could hold.
 *
 * <p>Stateless; any thread.
 */
final class ReachableTypes {

    private ReachableTypes() {
    }

    /** Class names reachable from the Remote interfaces {@code target} implements. */
    static Set<String> of(Class<?> target) {
        Set<String> out = new HashSet<>();
        ArrayDeque<Type> todo = new ArrayDeque<>();
        for (Class<?> c = target; c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                addRemote(i, todo, new HashSet<>());
            }
        }
        Set<Type> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Type t = todo.poll();
            if (!seen.add(t)) {
                continue;
            }
            if (t instanceof ParameterizedType p) {
                todo.add(p.getRawType());
                for (Type a : p.getActualTypeArguments()) {
                    todo.add(a);
                }
            } else if (t instanceof GenericArrayType g) {
                todo.add(g.getGenericComponentType());
            } else if (t instanceof WildcardType w) {
                for (Type b : w.getUpperBounds()) {
                    todo.add(b);
                }
            } else if (t instanceof Class<?> c) {
                addClass(c, out, todo);
            }
        }
        return out;
    }

    private static void addRemote(Class<?> i, ArrayDeque<Type> todo, Set<Class<?>> seen) {
        if (!Remote.class.isAssignableFrom(i) || !seen.add(i)) {
            return;
        }
        for (Method m : i.getMethods()) {
            if (m.getDeclaringClass() == Object.class) {
                continue;
            }
            todo.add(m.getGenericReturnType());
            for (Type p : m.getGenericParameterTypes()) {
                todo.add(p);
            }
            for (Type e : m.getGenericExceptionTypes()) {
                todo.add(e);
            }
        }
    }

    private static void addClass(Class<?> c, Set<String> out, ArrayDeque<Type> todo) {
        while (c.isArray()) {
            c = c.getComponentType();
        }
        if (c.isPrimitive() || c.isInterface() || isJdk(c) || !Serializable.class.isAssignableFrom(c)) {
            return;
        }
        out.add(c.getName());
        for (Class<?> k = c; k != null && !isJdk(k); k = k.getSuperclass()) {
            out.add(k.getName());
            for (Field f : k.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (!Modifier.isStatic(mod) && !Modifier.isTransient(mod)) {
                    todo.add(f.getGenericType());
                }
            }
        }
    }

    private static boolean isJdk(Class<?> c) {
        return c.getClassLoader() == null || c.getName().startsWith("java.") || c.getName().startsWith("javax.");
    }
}
