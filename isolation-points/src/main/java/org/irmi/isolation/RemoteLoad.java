package org.irmi.isolation;

/**
 * The latest load report a remote I-RMI server attached to its replies (a GIOP service context).
 * Peers without I-RMI send none.
 *
 * @param cpu              the remote process's CPU use, 0..1
 * @param heapPressure     its heap pressure, 0..1
 * @param queueLength      the length of its hand-off queue
 * @param gcPerSecond      its garbage collections per second
 * @param overloaded       whether its poison point advertises overload (cooperation between nodes)
 * @param receivedAtNanos  when this client received the report (monotonic)
 */
public record RemoteLoad(double cpu, double heapPressure, int queueLength, double gcPerSecond,
                         boolean overloaded, long receivedAtNanos) {

    /** @return the view of a monitors' load report received at {@code receivedAtNanos}. */
    public static RemoteLoad from(org.irmi.monitors.LoadReport r, long receivedAtNanos) {
        return new RemoteLoad(r.cpuFraction(), r.heapPressure(), r.queueLength(),
                r.gcPerMinute() / 60.0, r.overloaded() || r.poisonEpisode(), receivedAtNanos);
    }
}
