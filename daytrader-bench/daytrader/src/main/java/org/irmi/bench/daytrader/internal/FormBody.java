package org.irmi.bench.daytrader.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The bounded parser of the web tier's POST bodies ({@code application/x-www-form-urlencoded}).
 *
 * <p>The bounds, each checked before the work it guards:
 * <ul>
 *   <li>a declared {@code Content-Length} above {@link #MAX_BODY_BYTES} is refused before a byte is
 *       read, and a body without a length is read only to {@code MAX_BODY_BYTES + 1} bytes:
 *       {@link Refusal#TOO_LARGE} (413);</li>
 *   <li>a body of another content type: {@link Refusal#WRONG_TYPE} (415). An empty body needs no
 *       content type (a POST carrying its CSRF token in a header);</li>
 *   <li>more than {@link #MAX_FIELDS} fields, a field named twice (parameter pollution: which copy
 *       would a check and an action each read?), an empty name or a malformed {@code %} escape:
 *       {@link Refusal#MALFORMED} (400).</li>
 * </ul>
 * Values are decoded as UTF-8. Outcomes are values ({@link Parsed} or {@link Refused}), never
 * exceptions. Stateless and THREAD-SAFE.
 */
public final class FormBody {
    /** The largest body read: 8 KiB. The largest form of the web tier (register) is under 1 KiB. */
    public static final int MAX_BODY_BYTES = 8 * 1024;
    /** The most fields a body may hold. The largest form of the web tier has 8. */
    public static final int MAX_FIELDS = 64;
    static final String FORM_TYPE = "application/x-www-form-urlencoded";

    private FormBody() {
    }

    /** Why a body was refused, with its HTTP status. */
    public enum Refusal {
        TOO_LARGE(413), WRONG_TYPE(415), MALFORMED(400);

        private final int status;

        Refusal(int status) {
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /** The outcome of reading a body. */
    public sealed interface Outcome permits Parsed, Refused {
    }

    /** The fields of an accepted body, in their order, names unique. */
    public record Parsed(Map<String, String> fields) implements Outcome {
        public Parsed {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        /** The value of {@code name}, or null. */
        public String get(String name) {
            return fields.get(name);
        }
    }

    /** A refused body: the reason and a message for the client saying what to change. */
    public record Refused(Refusal reason, String message) implements Outcome {
        public int status() {
            return reason.status();
        }
    }

    /**
     * Reads and parses a body.
     *
     * @param contentType the request's {@code Content-Type}, or null
     * @param contentLength the declared length in bytes, or -1 when none was declared (chunked)
     * @param body the body; read at most {@code MAX_BODY_BYTES + 1} bytes, and not at all when the
     *             declared length is already too large
     */
    public static Outcome read(String contentType, long contentLength, InputStream body) throws IOException {
        if (contentLength > MAX_BODY_BYTES) {
            return tooLarge(contentLength);
        }
        byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
        if (bytes.length > MAX_BODY_BYTES) {
            return tooLarge(-1);
        }
        return parse(contentType, bytes);
    }

    /** Parses a body already read (at most {@link #MAX_BODY_BYTES}). Pure. */
    public static Outcome parse(String contentType, byte[] body) {
        if (body.length > MAX_BODY_BYTES) {
            return tooLarge(body.length);
        }
        if (body.length == 0 && contentType == null) {
            return new Parsed(Map.of());
        }
        if (!isForm(contentType)) {
            return new Refused(Refusal.WRONG_TYPE, "a POST body must be " + FORM_TYPE + " (UTF-8), was "
                    + (contentType == null ? "no content type" : "'" + contentType + "'"));
        }
        String text = new String(body, StandardCharsets.UTF_8);
        Map<String, String> fields = new LinkedHashMap<>();
        int count = 0;
        int start = 0;
        while (start <= text.length()) {
            int end = text.indexOf('&', start);
            if (end < 0) {
                end = text.length();
            }
            if (end > start) { // "a=1&&b=2" and a trailing '&' carry no field
                if (++count > MAX_FIELDS) {
                    return new Refused(Refusal.MALFORMED, "a form may hold at most " + MAX_FIELDS + " fields");
                }
                String pair = text.substring(start, end);
                int eq = pair.indexOf('=');
                String name;
                String value;
                try {
                    name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                    value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    return new Refused(Refusal.MALFORMED, "field " + (count) + " has a malformed %-escape");
                }
                if (name.isEmpty()) {
                    return new Refused(Refusal.MALFORMED, "field " + count + " has no name");
                }
                if (fields.putIfAbsent(name, value) != null) {
                    return new Refused(Refusal.MALFORMED, "field '" + name + "' is given twice");
                }
            }
            start = end + 1;
        }
        return new Parsed(fields);
    }

    private static boolean isForm(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";");
        if (!parts[0].trim().toLowerCase(Locale.ROOT).equals(FORM_TYPE)) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim().toLowerCase(Locale.ROOT);
            if (p.startsWith("charset=") && !p.substring(8).replace("\"", "").equals("utf-8")) {
                return false; // a form in another charset would decode to other text than its sender meant
            }
        }
        return true;
    }

    private static Refused tooLarge(long length) {
        return new Refused(Refusal.TOO_LARGE, "a POST body may be at most " + MAX_BODY_BYTES + " bytes"
                + (length >= 0 ? ", was " + length : ""));
    }
}
