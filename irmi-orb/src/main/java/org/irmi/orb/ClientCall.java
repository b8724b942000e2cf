package org.irmi.orb;

/**
 * One outgoing call as the client hook sees it.
 *
 * @param targetHost  host of the target's effective IIOP profile ("" when unknown)
 * @param targetPort  port of that profile (-1 when unknown)
 * @param objectKey   the target's object key (empty when unknown)
 * @param typeId      the repository id of the target's interface as its reference states it
 * @param operation   the GIOP operation name
 * @param oneway      true when no reply is expected
 * @param rmi         true for RMI-IIOP stubs made by I-RMI: the hook runs BEFORE marshalling and
 *                    {@link #arguments()} holds the call's arguments; false for IDL stubs: the hook
 *                    runs in the client request interceptor (arguments already marshalled, not sent)
 * @param arguments   the Java arguments of an RMI call (null for IDL calls); the hook must not change them
 */
public record ClientCall(String targetHost, int targetPort, byte[] objectKey, String typeId, String operation,
                         boolean oneway, boolean rmi, Object[] arguments) {

    /** {@code host:port/objectKeyText}: a stable name of the target for logs and stream names. */
    public String targetKey() {
        return targetHost + ":" + targetPort + "/" + Keys.toText(objectKey);
    }

    /** The object key as text (see {@link Keys#toText}). */
    public String objectKeyText() {
        return Keys.toText(objectKey);
    }
}
