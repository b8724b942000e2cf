package org.irmi.orb;

/**
 * How a request ended: what a client's {@link ClientCallHook#afterCall} hears about a call it sent,
 * and what the server measured in a {@link RequestCost}.
 */
public enum CallOutcome {
    /** A normal reply. */
    REPLY,
    /** The servant raised a user (IDL-declared or RMI checked) exception. */
    USER_EXCEPTION,
    /** A CORBA system exception ended the request. */
    SYSTEM_EXCEPTION,
    /** The request was forwarded to another object (a {@code LOCATION_FORWARD} reply). */
    LOCATION_FORWARD,
    /**
     * A oneway request ended on the server, which sends no reply. Only the server reports it (in a
     * {@link RequestCost}); a {@link ClientCallHook} never sees it.
     */
    ONEWAY
}
