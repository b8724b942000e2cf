package org.irmi.bench.daytrader.internal;

import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.server.Request;

/**
 * The {@code DTSESSION} cookie that names a web session: {@code HttpOnly}, {@code SameSite=Strict},
 * {@code Path=/daytrader}, and {@code Secure} over TLS.
 */
final class SessionCookie {
    static final String COOKIE = "DTSESSION";
    static final String COOKIE_PATH = "/daytrader";

    private SessionCookie() {
    }

    /** The live session the request's cookie names, or null. */
    static WebSessions.Session find(WebSessions sessions, Request request) {
        for (HttpCookie c : Request.getCookies(request)) {
            if (COOKIE.equals(c.getName())) {
                WebSessions.Session s = sessions.find(c.getValue());
                if (s != null) {
                    return s;
                }
            }
        }
        return null;
    }

    /**
     * @param maxAgeSeconds the cookie's {@code Max-Age}; negative for a cookie that ends with the browser session
     * @return the session cookie carrying {@code value}
     */
    static HttpCookie of(String value, boolean secure, long maxAgeSeconds) {
        HttpCookie.Builder b = HttpCookie.build(COOKIE, value).path(COOKIE_PATH).httpOnly(true)
                .sameSite(HttpCookie.SameSite.STRICT).secure(secure);
        if (maxAgeSeconds >= 0) {
            b.maxAge(maxAgeSeconds);
        }
        return b.build();
    }
}
