package org.irmi.sla;

/**
 * The CORBA system exceptions an isolation point may answer with: the {@code kind} of the SLA's
 * {@code reject} module and of every decision that rejects a call. Both are retryable by the
 * caller: {@code TRANSIENT} says "try again, maybe elsewhere", {@code NO_RESOURCES} says "this
 * server refuses the load now". The completion status is always {@code COMPLETED_NO}: nothing ran.
 */
public enum SystemExceptionKind {
    /** {@code org.omg.CORBA.TRANSIENT}, completed NO. */
    TRANSIENT,
    /** {@code org.omg.CORBA.NO_RESOURCES}, completed NO. */
    NO_RESOURCES
}
