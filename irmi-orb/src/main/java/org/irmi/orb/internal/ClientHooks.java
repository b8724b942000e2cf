package org.irmi.orb.internal;

import org.irmi.orb.ClientCall;

/** Lets I-RMI's RMI stubs tell the client interceptor about the call they decided before marshalling. */
public final class ClientHooks {

    private ClientHooks() {
    }

    /** The stub is about to send {@code call} on this thread (already decided). */
    public static void enterStubCall(ClientCall call) {
        ClientHookInterceptor.enterStubCall(call);
    }

    /** The stub's call has ended. */
    public static void exitStubCall() {
        ClientHookInterceptor.exitStubCall();
    }
}
