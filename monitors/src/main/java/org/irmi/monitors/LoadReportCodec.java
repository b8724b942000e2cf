package org.irmi.monitors;

import java.util.Optional;

/**
 * The binary form of a {@link LoadReport}, carried as the data of a GIOP service context with id
 * {@link #SERVICE_CONTEXT_ID}.
 *
 * <pre>
 *  offset size  field            (big-endian, unsigned)
 *   0     1     version          = 1
 *   1     1     flags            bit 0 overloaded, bit 1 poison episode; other bits reserved (ignored)
 *   2     2     cpuPermille      0..1000
 *   4     2     heapPermille     0..1000
 *   6     4     queueLength      0..2^31-1
 *  10     2     gcTimePermille   0..1000
 *  12     2     gcPerMinute      0..65535
 *  14     -     (end of version 1: {@link #V1_LENGTH} bytes)
 * </pre>
 *
 * <p>Compatibility: a writer may append fields to version 1 (decoders ignore bytes after offset 14,
 * up to {@link #MAX_LENGTH}); an incompatible layout gets a new version number, which version-1
 * decoders reject. Peers without I-RMI send no such context; a client that finds none simply has no
 * report for that host.
 *
 * <p>The data is not a CDR encapsulation: it has its own fixed byte order, so it is the same bytes
 * whatever the GIOP message's byte order.
 *
 * <p>THREAD-SAFE (stateless).
 */
public final class LoadReportCodec {

    /**
     * Service context id: {@code 0x49524D01} ("IRM" then 1). It lies outside the ids the OMG has
     * assigned to standard contexts; it is not a registered vendor id, so a deployment that clashes
     * with another vendor's context can change it in one place.
     */
    public static final int SERVICE_CONTEXT_ID = 0x49524D01;
    /** The format version this codec writes. */
    public static final int VERSION = 1;
    /** Length of a version 1 report, bytes. */
    public static final int V1_LENGTH = 14;
    /** Longest report accepted (room for appended fields); longer data is rejected. */
    public static final int MAX_LENGTH = 256;

    private static final int FLAG_OVERLOADED = 1;
    private static final int FLAG_POISON = 2;

    private LoadReportCodec() {
    }

    /**
     * @param report the report
     * @return its {@value #V1_LENGTH}-byte encoding
     */
    public static byte[] encode(LoadReport report) {
        byte[] b = new byte[V1_LENGTH];
        b[0] = (byte) VERSION;
        b[1] = (byte) ((report.overloaded() ? FLAG_OVERLOADED : 0) | (report.poisonEpisode() ? FLAG_POISON : 0));
        putShort(b, 2, report.cpuPermille());
        putShort(b, 4, report.heapPermille());
        putInt(b, 6, report.queueLength());
        putShort(b, 10, report.gcTimePermille());
        putShort(b, 12, report.gcPerMinute());
        return b;
    }

    /**
     * Decodes and validates a report.
     *
     * @param data the service context data
     * @return the report
     * @throws MalformedLoadReportException if it is null, too short or too long, of an unknown version,
     *                                      or a field is out of range (the message names the field,
     *                                      its offset and its bound)
     */
    public static LoadReport decode(byte[] data) {
        if (data == null) {
            throw new MalformedLoadReportException("load report: no data");
        }
        if (data.length == 0) {
            throw new MalformedLoadReportException("load report: empty (0 bytes); version " + VERSION + " needs " + V1_LENGTH);
        }
        int version = data[0] & 0xFF;
        if (version != VERSION) {
            throw new MalformedLoadReportException("load report: unsupported version " + version + " at offset 0; this decoder reads version " + VERSION);
        }
        if (data.length < V1_LENGTH) {
            throw new MalformedLoadReportException("load report: truncated, " + data.length + " bytes; version 1 needs " + V1_LENGTH);
        }
        if (data.length > MAX_LENGTH) {
            throw new MalformedLoadReportException("load report: " + data.length + " bytes, more than the maximum " + MAX_LENGTH);
        }
        int flags = data[1] & 0xFF;
        int cpu = permille(data, 2, "cpuPermille");
        int heap = permille(data, 4, "heapPermille");
        long queue = getInt(data, 6);
        if (queue > Integer.MAX_VALUE) {
            throw new MalformedLoadReportException("load report: queueLength " + queue + " at offset 6 exceeds " + Integer.MAX_VALUE);
        }
        int gcTime = permille(data, 10, "gcTimePermille");
        int gcPerMinute = getShort(data, 12);
        return new LoadReport(cpu, heap, (int) queue, gcTime, gcPerMinute,
                (flags & FLAG_OVERLOADED) != 0, (flags & FLAG_POISON) != 0);
    }

    /**
     * Decodes without throwing, for the reply path: a malformed report is treated as absent.
     *
     * @param data the service context data (may be null)
     * @return the report, or empty if the data is absent or malformed
     */
    public static Optional<LoadReport> tryDecode(byte[] data) {
        if (data == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(decode(data));
        } catch (MalformedLoadReportException e) {
            return Optional.empty();
        }
    }

    private static int permille(byte[] b, int offset, String field) {
        int v = getShort(b, offset);
        if (v > LoadReport.MAX_PERMILLE) {
            throw new MalformedLoadReportException("load report: " + field + " " + v + " at offset " + offset
                    + " exceeds " + LoadReport.MAX_PERMILLE);
        }
        return v;
    }

    private static void putShort(byte[] b, int offset, int v) {
        b[offset] = (byte) (v >>> 8);
        b[offset + 1] = (byte) v;
    }

    private static void putInt(byte[] b, int offset, int v) {
        b[offset] = (byte) (v >>> 24);
        b[offset + 1] = (byte) (v >>> 16);
        b[offset + 2] = (byte) (v >>> 8);
        b[offset + 3] = (byte) v;
    }

    private static int getShort(byte[] b, int offset) {
        return ((b[offset] & 0xFF) << 8) | (b[offset + 1] & 0xFF);
    }

    private static long getInt(byte[] b, int offset) {
        return ((long) (b[offset] & 0xFF) << 24) | ((b[offset + 1] & 0xFF) << 16) | ((b[offset + 2] & 0xFF) << 8) | (b[offset + 3] & 0xFF);
    }
}
