package org.irmi.monitors;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * Reads an HTTP/1.1 request's line and headers, up to the blank line that ends them, within a
 * deadline and a size limit, so that no client can hold a {@link LoopbackHttpServer} worker past
 * the deadline nor make it buffer more than the limit. The body, if any, is never read.
 */
final class HttpRequestHeadReader {

    private HttpRequestHeadReader() {
    }

    /**
     * Reads the request line and headers up to the blank line, within the deadline and the size
     * limit. Returns them (without the blank line), or null when the limit was reached.
     *
     * @param maxRequestBytes the most bytes the line and headers may take
     * @param clock           the clock the deadline is on
     * @param deadlineNanos   {@code clock}'s time by which the head must be whole
     * @param deadlineMillis  the deadline's length, for the timeout's message
     * @throws SocketTimeoutException when the deadline passes first
     */
    static String readHead(InputStream in, int maxRequestBytes, Clock clock, long deadlineNanos, int deadlineMillis)
            throws IOException {
        byte[] buf = new byte[maxRequestBytes];
        int n = 0;
        while (true) {
            if (clock.nanoTime() - deadlineNanos > 0) {
                throw new SocketTimeoutException("request not complete within " + deadlineMillis + " ms");
            }
            if (n == buf.length) {
                return null;
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                throw new IOException("closed before the request ended");
            }
            int from = Math.max(0, n - 3);
            n += r;
            int end = headEnd(buf, from, n);
            if (end >= 0) {
                return new String(buf, 0, end, StandardCharsets.ISO_8859_1);
            }
        }
    }

    /** The index of the blank line ending the headers ({@code \r\n\r\n} or {@code \n\n}), or -1. */
    private static int headEnd(byte[] b, int from, int n) {
        for (int i = from; i + 1 < n; i++) {
            if (b[i] == '\n' && (b[i + 1] == '\n' || (b[i + 1] == '\r' && i + 2 < n && b[i + 2] == '\n'))) {
                return i;
            }
        }
        return -1;
    }
}
