package org.irmi.monitors;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.irmi.monitors.LoopbackHttpServer.Response;

/**
 * Writes one {@link Response} as HTTP/1.1 with {@code Content-Length},
 * {@code X-Content-Type-Options: nosniff} and {@code Connection: close} (one answer per connection);
 * the answer to {@code HEAD} leaves the body out.
 */
final class HttpResponseWriter {

    private HttpResponseWriter() {
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 413 -> "Content Too Large";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            default -> "Status";
        };
    }

    static void write(OutputStream out, Response r, boolean head) throws IOException {
        StringBuilder h = new StringBuilder(160).append("HTTP/1.1 ").append(r.status()).append(' ')
                .append(reason(r.status())).append("\r\nContent-Type: ").append(r.contentType())
                .append("\r\nContent-Length: ").append(r.body().length)
                .append("\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n");
        r.headers().forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
        out.write(h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        if (!head) {
            out.write(r.body());
        }
        out.flush();
    }
}
