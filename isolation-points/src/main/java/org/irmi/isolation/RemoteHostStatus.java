package org.irmi.isolation;

/**
 * What the slow-client point knows of one remote host, as an operator reads it. An immutable
 * snapshot.
 *
 * @param host      the host as calls name it
 * @param load      the latest load report its replies carried, or null when none did
 * @param rttNanos  the smoothed round trip of calls to it, NaN before the first reply
 * @param triggered whether calls to it are refused to the module now (it advertises overload)
 */
public record RemoteHostStatus(String host, RemoteLoad load, double rttNanos, boolean triggered) {
}
