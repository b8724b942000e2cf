package org.irmi.isolation;

/**
 * The minor codes of the system exceptions I-RMI raises. They carry the vendor minor code set id
 * {@link #VMCID} ({@code 0x49524000}, "IR" in ASCII followed by {@code 0x4000}) in the upper 20
 * bits, as CORBA 3 section 9.2.3 asks, and the reason in the lower 12 bits. The id is not
 * registered with the OMG; it is documented here and in {@code docs/adaptation-modules.md}. This is
 * the one table of them: the ORB's own codes (transport, value filter) are here too.
 */
public final class MinorCodes {
    /** The I-RMI vendor minor code set id (upper 20 bits). */
    public static final int VMCID = 0x49524000;
    /** Poison point: the request's signature is filtered as a poison message. */
    public static final int POISON_FILTERED = VMCID | 1;
    /** Slow-client point: the call to a slow downstream node was rejected. */
    public static final int SLOW_CLIENT_REJECTED = VMCID | 2;
    /** Throttle module: the call exceeded the configured rate. */
    public static final int THROTTLED = VMCID | 3;
    /** Adaptive concurrency limit: the limit of calls in flight was reached. */
    public static final int CONCURRENCY_LIMIT = VMCID | 4;
    /** Defer module: the deferral queue was full, the call could not be parked. */
    public static final int DEFER_QUEUE_FULL = VMCID | 5;
    /** Defer module: the call waited its maximum time in the deferral queue. */
    public static final int DEFER_TIMEOUT = VMCID | 6;
    /** Reject module: rejected by policy (any point). */
    public static final int REJECTED_BY_POLICY = VMCID | 7;
    /** Reroute module: no replica could be found to forward to. */
    public static final int NO_REPLICA = VMCID | 8;
    /** A decision the enforcing hook cannot carry out where it runs (e.g. waiting on the reader). */
    public static final int NOT_ENFORCEABLE_HERE = VMCID | 9;
    /** Transport: the hand-off queue from the reader to the dispatch workers was full. */
    public static final int HANDOFF_FULL = VMCID | 0x10;
    /** A short-circuit decision on an IDL call, which has no result to return without sending it. */
    public static final int SHORT_CIRCUIT_UNSUPPORTED = VMCID | 0x11;
    /** The RMI-IIOP value filter refused a value (its class, depth, array length, references or bytes). */
    public static final int VALUE_REFUSED = VMCID | 0x12;
    /** Transport: a request larger than the inbound memory budget could hold, refused at its header ({@code NO_MEMORY}). */
    public static final int REQUEST_OVER_BUDGET = VMCID | 0x13;
    /**
     * Transport: as many requests as {@code jacorb.poa.queue_max} already waited for a servant thread, and
     * {@code jacorb.poa.queue_wait} is off ({@code TRANSIENT}, as JacORB's POA answers its full queue).
     */
    public static final int POA_QUEUE_FULL = VMCID | 0x14;
    /** Transport: the request waited {@code jacorb.poa.threadtimeout} for a servant thread ({@code TIMEOUT}, as JacORB's POA). */
    public static final int POA_THREAD_TIMEOUT = VMCID | 0x15;

    private MinorCodes() {
    }

    /** @return whether {@code minor} belongs to I-RMI's minor code set. */
    public static boolean isIrmi(int minor) {
        return (minor & 0xFFFFF000) == VMCID;
    }

    /** @return a short name for an I-RMI minor code, for logs ({@code "POISON_FILTERED"}). */
    public static String name(int minor) {
        return switch (minor) {
            case POISON_FILTERED -> "POISON_FILTERED";
            case SLOW_CLIENT_REJECTED -> "SLOW_CLIENT_REJECTED";
            case THROTTLED -> "THROTTLED";
            case CONCURRENCY_LIMIT -> "CONCURRENCY_LIMIT";
            case DEFER_QUEUE_FULL -> "DEFER_QUEUE_FULL";
            case DEFER_TIMEOUT -> "DEFER_TIMEOUT";
            case REJECTED_BY_POLICY -> "REJECTED_BY_POLICY";
            case NO_REPLICA -> "NO_REPLICA";
            case NOT_ENFORCEABLE_HERE -> "NOT_ENFORCEABLE_HERE";
            case HANDOFF_FULL -> "HANDOFF_FULL";
            case SHORT_CIRCUIT_UNSUPPORTED -> "SHORT_CIRCUIT_UNSUPPORTED";
            case VALUE_REFUSED -> "VALUE_REFUSED";
            case REQUEST_OVER_BUDGET -> "REQUEST_OVER_BUDGET";
            case POA_QUEUE_FULL -> "POA_QUEUE_FULL";
            case POA_THREAD_TIMEOUT -> "POA_THREAD_TIMEOUT";
            default -> "0x" + Integer.toHexString(minor);
        };
    }
}
