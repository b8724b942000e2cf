package org.irmi.orb.internal;

/** Lets I-RMI's RMI stubs tell the client interceptor that a call was decided before marshalling. */
public final class ClientHooks {

    private ClientHooks() {
    }

    /** Marks the next call of this thread as already decided by its stub. */
    public static void markDecidedByStub() {
        ClientHookInterceptor.markDecidedByStub();
    }

    /** Clears the mark. */
    public static void clearDecidedByStub() {
        ClientHookInterceptor.clearDecidedByStub();
    }
}
