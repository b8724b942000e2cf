package org.irmi.orb;

import java.util.Objects;

/**
 * A CORBA system exception that a hook answers a call with, described without CORBA types so
 * ORB-agnostic code can build it.
 *
 * @param exceptionName simple name of the standard CORBA system exception, e.g. {@code "TRANSIENT"},
 *                      {@code "NO_RESOURCES"}, {@code "IMP_LIMIT"}; it must name a class in
 *                      {@code org.omg.CORBA}
 * @param minorCode     the minor code the caller sees (vendor codes included)
 * @param completed     whether the operation completed; early rejections use {@link Completion#NO}
 * @param message       a human readable reason, used where the exception carries one (client side)
 */
public record Rejection(String exceptionName, int minorCode, Completion completed, String message) {

    /** Completion status of a rejected call, as CORBA defines it. */
    public enum Completion { YES, NO, MAYBE }

    public Rejection {
        Objects.requireNonNull(exceptionName, "exceptionName");
        Objects.requireNonNull(completed, "completed");
        message = message == null ? "" : message;
    }

    /** A {@code TRANSIENT} rejection that did not complete: the caller may retry. */
    public static Rejection transientFailure(int minorCode, String message) {
        return new Rejection("TRANSIENT", minorCode, Completion.NO, message);
    }

    /** The CORBA repository id of the exception, e.g. {@code IDL:omg.org/CORBA/TRANSIENT:1.0}. */
    public String repositoryId() {
        return "IDL:omg.org/CORBA/" + exceptionName + ":1.0";
    }
}
