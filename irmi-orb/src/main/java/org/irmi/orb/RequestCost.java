package org.irmi.orb;

/**
 * What one server request cost, measured on the thread that ran its servant.
 *
 * @param operation       the operation name
 * @param objectKey       the target's object key
 * @param peerAddress     the client's {@code host:port}, or {@code ""} when unknown
 * @param connectionId    the server connection, or -1 when unknown
 * @param requestId       the GIOP request id (unique per connection while the request is in flight)
 * @param cpuNanos        CPU time of the dispatch thread spent on the request (user + system), -1
 *                        when not measured ({@link IrmiHooks#setMeasureCpuAndAllocation})
 * @param allocatedBytes  bytes allocated by the dispatch thread for the request, -1 when not measured
 * @param elapsedNanos    wall time from the first server interceptor point to the reply
 * @param outcome         how the request ended ({@link CallOutcome#ONEWAY} for a oneway request)
 */
public record RequestCost(String operation, byte[] objectKey, String peerAddress, long connectionId,
                          int requestId, long cpuNanos, long allocatedBytes, long elapsedNanos, CallOutcome outcome) {
}
