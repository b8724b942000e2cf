package org.irmi.bench.daytrader.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The web tier's sessions: one per signed-in user agent, named by a 128-bit random id (the
 * {@code DTSESSION} cookie) and holding the signed-in user and the session's 128-bit CSRF token.
 *
 * <p>There are no anonymous sessions: a session is made only when a user signs in, and every
 * sign-in makes a new one (a new id and, unless the client brought its own, a new CSRF token) and
 * ends the one the request came with, so an id known before the sign-in (session fixation) signs
 * nobody in. A session ends at logout, after {@link #IDLE_NANOS} unused, or {@link #LIFETIME_NANOS}
 * after its sign-in, whichever is first. At most {@link #MAX_SESSIONS} are held: past that, the
 * expired ones are swept, then the oldest go.
 *
 * <p>Time is the injected monotonic clock, so tests expire sessions without sleeping. THREAD-SAFE.
 */
final class WebSessions {
    /** A session unused this long is gone: its cookie no longer signs anyone in. */
    static final long IDLE_NANOS = TimeUnit.MINUTES.toNanos(30);
    /** A session this old is gone however busy it is: a stolen id does not live for ever. */
    static final long LIFETIME_NANOS = TimeUnit.HOURS.toNanos(8);
    static final int MAX_SESSIONS = 200_000;
    /** Ids and CSRF tokens: 128 bits each. */
    static final int RANDOM_BYTES = 16;

    /** A signed-in session. The id, user and token never change; a sign-in makes a new session. */
    static final class Session {
        final String id;
        final String userId;
        private final byte[] csrf;
        final long createdNanos;
        volatile long lastSeenNanos;

        private Session(String id, String userId, byte[] csrf, long nowNanos) {
            this.id = id;
            this.userId = userId;
            this.csrf = csrf;
            this.createdNanos = nowNanos;
            this.lastSeenNanos = nowNanos;
        }

        /** The CSRF token as 32 hex digits, for the session's forms. */
        String csrfToken() {
            return HexFormat.of().formatHex(csrf);
        }

        /** True when {@code presented} is this session's CSRF token; constant time in where they differ. */
        boolean csrfMatches(String presented) {
            if (presented == null || presented.length() != 2 * RANDOM_BYTES) {
                return false;
            }
            return MessageDigest.isEqual(presented.getBytes(StandardCharsets.US_ASCII),
                    csrfToken().getBytes(StandardCharsets.US_ASCII));
        }

        boolean isLive(long nowNanos) {
            return nowNanos - lastSeenNanos < IDLE_NANOS && nowNanos - createdNanos < LIFETIME_NANOS;
        }
    }

    private final ConcurrentHashMap<String, Session> byId = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final LongSupplier nanoClock;

    WebSessions(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** The live session named {@code id}, marked used now; null for an unknown, ended or expired id. */
    Session find(String id) {
        if (id == null) {
            return null;
        }
        Session s = byId.get(id);
        if (s == null) {
            return null;
        }
        long now = nanoClock.getAsLong();
        if (!s.isLive(now)) {
            byId.remove(id, s);
            return null;
        }
        s.lastSeenNanos = now;
        return s;
    }

    /**
     * Signs {@code userId} in: a new session with a new id, replacing {@code previous} (which ends).
     *
     * @param csrfHex the CSRF token the client chose (32 lower-case hex digits), or null for a new
     *                random one; see {@link #isWellFormedToken}
     */
    Session signIn(String userId, String csrfHex, Session previous) {
        if (previous != null) {
            end(previous);
        }
        long now = nanoClock.getAsLong();
        if (byId.size() >= MAX_SESSIONS) {
            byId.values().removeIf(x -> !x.isLive(now));
            if (byId.size() >= MAX_SESSIONS) {
                Session oldest = byId.values().stream().min((a, b) -> Long.compare(a.lastSeenNanos, b.lastSeenNanos)).orElse(null);
                if (oldest != null) {
                    byId.remove(oldest.id, oldest);
                }
            }
        }
        byte[] csrf = csrfHex != null ? HexFormat.of().parseHex(csrfHex) : randomBytes();
        while (true) {
            Session s = new Session(HexFormat.of().formatHex(randomBytes()), userId, csrf, now);
            if (byId.putIfAbsent(s.id, s) == null) {
                return s;
            }
        }
    }

    /** Ends {@code s}: its id signs nobody in any more. */
    void end(Session s) {
        byId.remove(s.id, s);
    }

    int size() {
        return byId.size();
    }

    /** True when {@code token} can be a session's CSRF token: 32 lower-case hex digits (128 bits). */
    static boolean isWellFormedToken(String token) {
        return token != null && token.length() == 2 * RANDOM_BYTES && token.chars().allMatch(c -> (c >= '0' && c <= '9')
                || (c >= 'a' && c <= 'f'));
    }

    private byte[] randomBytes() {
        byte[] b = new byte[RANDOM_BYTES];
        random.nextBytes(b);
        return b;
    }
}
