package org.irmi.isolation;

/**
 * Supplied by the application to shrink a call's parameters under load (the paper's "decreasing
 * the sizes of call parameters to reduce the processing required on the target server"). Must be
 * cheap, must not block, and must return arguments of the same types in the same order.
 */
@FunctionalInterface
public interface ParameterReducer {
    /**
     * @param operation the operation being called
     * @param arguments the call's arguments; must not be modified in place
     * @return the reduced arguments (a new array)
     */
    Object[] reduce(String operation, Object[] arguments);
}
