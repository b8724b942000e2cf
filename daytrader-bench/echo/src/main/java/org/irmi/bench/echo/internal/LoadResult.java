package org.irmi.bench.echo.internal;

import java.util.HashMap;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * One run of the omniORB load client, parsed from its {@code ECHO-LOAD} and {@code ECHO-HIST}
 * lines. The percentiles come from an HdrHistogram filled with the client's bucket counts.
 *
 * @param connections     connections asked for
 * @param connected       callers that completed at least one call (connections really opened)
 * @param payloadBytes    bytes per request (and per reply)
 * @param seconds         length of the measured interval
 * @param calls           calls completed in it
 * @param errors          calls that raised an exception from the start of the measurement to the end
 *                        of the run (a call that times out after the measured interval counts)
 * @param errorsAll       calls that raised an exception over the whole run, ramp and warm-up included
 * @param mismatches      replies whose length or content differed from the request (whole run)
 * @param callsPerSecond  calls / seconds
 * @param p50Micros       median latency
 * @param p99Micros       99th percentile latency
 * @param maxMicros       largest latency
 * @param rampMillis      time until every caller had completed one call
 * @param stuck           callers still waiting for a reply 10 s after the end (lost replies)
 * @param histogram       latencies in nanoseconds
 */
public record LoadResult(int connections, int connected, int payloadBytes, double seconds, long calls,
                         long errors, long errorsAll, long mismatches, double callsPerSecond, double p50Micros,
                         double p99Micros, double maxMicros, long rampMillis, int stuck, Histogram histogram) {

    /** Calls that went wrong: exceptions, wrong echoes and callers left waiting. */
    public long failedCalls() {
        return errors + mismatches + stuck;
    }

    /**
     * Parses the load client's output.
     *
     * @throws IllegalArgumentException when the ECHO-LOAD line is missing or incomplete, with the output
     */
    public static LoadResult parse(String output) {
        Map<String, String> kv = new HashMap<>();
        Histogram h = new Histogram(3);
        boolean sawLoad = false;
        for (String line : output.split("\n")) {
            if (line.startsWith("ECHO-LOAD ")) {
                sawLoad = true;
                for (String field : line.substring(10).trim().split("\\s+")) {
                    int eq = field.indexOf('=');
                    if (eq > 0) {
                        kv.put(field.substring(0, eq), field.substring(eq + 1));
                    }
                }
            } else if (line.startsWith("ECHO-HIST")) {
                String body = line.substring(9).trim();
                if (!body.isEmpty()) {
                    for (String bucket : body.split(",")) {
                        int colon = bucket.indexOf(':');
                        h.recordValueWithCount(Long.parseLong(bucket.substring(0, colon)),
                                Long.parseLong(bucket.substring(colon + 1)));
                    }
                }
            }
        }
        if (!sawLoad) {
            throw new IllegalArgumentException("no ECHO-LOAD line in the load client's output:\n" + output);
        }
        try {
            long calls = Long.parseLong(kv.get("calls"));
            double seconds = Double.parseDouble(kv.get("seconds"));
            return new LoadResult(Integer.parseInt(kv.get("connections")), Integer.parseInt(kv.get("connected")),
                    Integer.parseInt(kv.get("payload")), seconds, calls, Long.parseLong(kv.get("errors")),
                    Long.parseLong(kv.getOrDefault("errors_all", kv.get("errors"))),
                    Long.parseLong(kv.get("mismatches")), calls / seconds,
                    h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50) / 1e3,
                    h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99) / 1e3,
                    h.getTotalCount() == 0 ? 0 : h.getMaxValue() / 1e3,
                    Long.parseLong(kv.get("ramp_ms")), Integer.parseInt(kv.getOrDefault("stuck", "0")), h);
        } catch (NullPointerException | NumberFormatException e) {
            throw new IllegalArgumentException("incomplete ECHO-LOAD line (" + e + ") in:\n" + output, e);
        }
    }
}
