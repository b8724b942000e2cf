package org.irmi.orb;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The stream tag a client puts on its requests, so that a server's QoS-crosstalk point can weight
 * them (an SLA {@code crosstalk.weights} entry with {@code tag:}). It travels as GIOP service
 * context {@value #SERVICE_CONTEXT_ID_HEX} whose data is the tag's ASCII bytes; ORBs without
 * I-RMI ignore it.
 *
 * <p>A tag is 1-64 characters of {@code A-Z a-z 0-9 _ . : -}. An I-RMI client ORB tags every
 * request with its property {@value #PROPERTY} when set; a thread overrides that for the calls it
 * makes inside {@link #use}:
 *
 * <pre>{@code
 * try (StreamTag.Scope bulk = StreamTag.use("bulk")) {
 *     archive.store(report);   // sent with tag "bulk"
 * }
 * }</pre>
 *
 * <p>THREADING: the override is per thread; everything else is immutable.
 */
public final class StreamTag {

    /** Service context id: "IRM" followed by 2. */
    public static final int SERVICE_CONTEXT_ID = 0x49524D02;
    /** {@link #SERVICE_CONTEXT_ID} as written in docs. */
    public static final String SERVICE_CONTEXT_ID_HEX = "0x49524D02";
    /** ORB or system property: the tag of every request this ORB sends, unless a thread overrides it. */
    public static final String PROPERTY = "irmi.stream.tag";

    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");
    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private StreamTag() {
    }

    /** Restores the thread's previous tag when closed. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Tags the calls this thread makes until the scope is closed (scopes nest).
     *
     * @throws IllegalArgumentException when {@code tag} is not 1-64 of {@code A-Z a-z 0-9 _ . : -}
     */
    public static Scope use(String tag) {
        String valid = requireValid(tag);
        String previous = CURRENT.get();
        CURRENT.set(valid);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /** The tag this thread set with {@link #use}, if any. */
    public static Optional<String> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** This thread's tag, else {@code orbDefault} (may be null). */
    static String effective(String orbDefault) {
        String t = CURRENT.get();
        return t != null ? t : orbDefault;
    }

    /**
     * Checks a tag.
     *
     * @return the tag
     * @throws IllegalArgumentException when it is not 1-64 of {@code A-Z a-z 0-9 _ . : -}
     */
    public static String requireValid(String tag) {
        if (tag == null || !VALID.matcher(tag).matches()) {
            throw new IllegalArgumentException("a stream tag is 1-64 of A-Z a-z 0-9 _ . : -, got "
                    + (tag == null ? "null" : "\"" + tag + "\""));
        }
        return tag;
    }

    /** The service context data of a valid tag. */
    public static byte[] encode(String tag) {
        return requireValid(tag).getBytes(StandardCharsets.US_ASCII);
    }

    /** The tag in service context data, or null when the data is absent or not a valid tag. */
    public static String decode(byte[] data) {
        if (data == null || data.length == 0 || data.length > 64) {
            return null;
        }
        for (byte b : data) {
            boolean ok = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9')
                    || b == '_' || b == '.' || b == ':' || b == '-';
            if (!ok) {
                return null;
            }
        }
        return new String(data, StandardCharsets.US_ASCII);
    }
}
