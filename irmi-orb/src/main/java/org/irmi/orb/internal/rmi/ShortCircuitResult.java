package org.irmi.orb.internal.rmi;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The value a short-circuited RMI-IIOP call returns to the application: the SLA's {@code result:}
 * (text) converted to the method's return type, or the type's default (null, 0, false) when the SLA
 * sets none. The SLA cannot know the return type; only the stub does.
 */
final class ShortCircuitResult {

    private ShortCircuitResult() {
    }

    /**
     * @param type  the method's return type
     * @param value the decision's result: null, a value of the return type, or text to convert
     * @return the value to return
     * @throws IllegalArgumentException when the text cannot be converted to the type (the message names both)
     */
    static Object of(Class<?> type, Object value) {
        if (type == void.class) {
            return null;
        }
        if (value == null) {
            return type.isPrimitive() ? java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(type, 1), 0) : null;
        }
        Class<?> boxed = boxed(type);
        if (boxed.isInstance(value)) {
            return value;
        }
        String text = value.toString().trim();
        try {
            if (boxed == Long.class) {
                return Long.valueOf(text);
            } else if (boxed == Integer.class) {
                return Integer.valueOf(text);
            } else if (boxed == Short.class) {
                return Short.valueOf(text);
            } else if (boxed == Byte.class) {
                return Byte.valueOf(text);
            } else if (boxed == Double.class) {
                return Double.valueOf(text);
            } else if (boxed == Float.class) {
                return Float.valueOf(text);
            } else if (boxed == Boolean.class && (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false"))) {
                return Boolean.valueOf(text);
            } else if (boxed == Character.class && text.length() == 1) {
                return text.charAt(0);
            } else if (boxed == BigDecimal.class) {
                return new BigDecimal(text);
            } else if (boxed == BigInteger.class) {
                return new BigInteger(text);
            } else if (boxed == String.class || boxed == Object.class || boxed == CharSequence.class) {
                return value.toString();
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("short-circuit result '" + text + "' cannot be converted to the return type "
                + type.getName());
    }

    private static Class<?> boxed(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return java.lang.invoke.MethodType.methodType(type).wrap().returnType();
    }
}
