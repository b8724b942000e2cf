package org.irmi.orb;

/**
 * Receives the cost of every dispatched request.
 *
 * <p>THREADING: called on the POA dispatch thread right after the servant returned, concurrently
 * from many threads. It must be cheap and must not block.
 */
@FunctionalInterface
public interface RequestCostListener {

    /** One finished request. */
    void onRequestCost(RequestCost cost);
}
