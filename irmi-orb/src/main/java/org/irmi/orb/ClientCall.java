package org.irmi.orb;

/**
 * One outgoing call as the client hook sees it, before its arguments are marshalled.
 *
 * @param targetKey   a stable string naming the target object: {@code host:port/objectKeyHex}
 *                    of its effective IIOP profile
 * @param typeId      the repository id of the target's interface as its reference states it
 * @param operation   the GIOP operation name
 * @param oneway      true when no reply is expected
 * @param rmi         true for RMI-IIOP stubs made by I-RMI (hook runs before marshalling),
 *                    false for IDL stubs (hook runs in the client request interceptor, see docs/orb.md)
 */
public record ClientCall(String targetKey, String typeId, String operation, boolean oneway, boolean rmi) {
}
