package org.irmi.isolation;

/**
 * The SPI of a policy that decides what happens to a call an isolation point has flagged. Built by
 * the name an SLA gives it: a built-in from its typed SLA config, a third party's through its
 * {@link AdaptationModuleProvider}, found by {@code ServiceLoader}.
 *
 * <p>THREAD SAFETY: {@link #decide} is called concurrently by every thread that passes the point
 * (application threads on the client, the selector thread on the server) and must not block, sleep
 * or do I/O on the server side. Modules that wait (defer, throttle) return a decision that the
 * client hook enforces on the caller's thread.
 */
public interface AdaptationModule {
    /** @return the module's name, as an SLA names it ({@code reject}, {@code short-circuit}, ...). */
    String name();

    /**
     * Decides what to do with a flagged call.
     *
     * @param trigger the point, the call, the evidence and the time
     * @return never null; a {@link Decision.Proceed} lets the call go on
     */
    Decision decide(Trigger trigger);

    /**
     * @return true when the module must see every guarded call, not only the calls of a triggered
     *         point (a concurrency limit must count every call in flight); the trigger's evidence
     *         is then {@link Evidence#NONE} while the point is not triggered
     */
    default boolean consultedOnEveryCall() {
        return false;
    }
}
