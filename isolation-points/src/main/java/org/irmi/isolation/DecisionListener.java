package org.irmi.isolation;

/**
 * Receives every decision event. Called synchronously by the deciding thread (possibly the
 * selector thread): implementations must be fast and must not block; hand off if in doubt.
 */
@FunctionalInterface
public interface DecisionListener {
    /** @param event the decision just enforced */
    void onDecision(DecisionEvent event);
}
