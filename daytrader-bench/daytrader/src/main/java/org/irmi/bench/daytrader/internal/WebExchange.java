package org.irmi.bench.daytrader.internal;

import java.util.function.Function;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * One request in flight: its parameters, and its session, which a sign-in or logout replaces.
 *
 * <p>THREADING: the request's thread only.
 */
final class WebExchange {
    final Request request;
    final Response response;
    final Function<String, String> params;
    WebSessions.Session session;
    private final WebSessions sessions;

    WebExchange(WebSessions sessions, Request request, Response response, Function<String, String> params,
                WebSessions.Session session) {
        this.sessions = sessions;
        this.request = request;
        this.response = response;
        this.params = params;
        this.session = session;
    }

    String user() {
        return session == null ? null : session.userId;
    }

    String param(String name) {
        return params.apply(name);
    }

    Html html(String title) {
        return new Html(title, user(), session == null ? null : session.csrfToken());
    }

    /** Signs {@code userId} in on a new session (a new id), ending this request's session. */
    void signIn(String userId, String csrfHex) {
        session = sessions.signIn(userId, csrfHex, session);
        Response.addCookie(response, SessionCookie.of(session.id, request.isSecure(), -1));
    }

    void signOut() {
        if (session != null) {
            sessions.end(session);
            session = null;
            Response.addCookie(response, SessionCookie.of("", request.isSecure(), 0));
        }
    }
}
