package org.irmi.bench.daytrader.internal;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The web tier's table of pages: each page's name under {@code /daytrader/} and who may use it
 * with GET and with POST. GET only reads; every change of state is a POST, so a link, an image
 * or a prefetch can change nothing. A method a page does not take gets 405 with an {@code Allow}
 * header.
 *
 * <p>What each {@link Access} requires, checked by {@link WebTier} in this order: the method
 * (405), the operator's Bearer token where the page is the operator's (401), the body
 * ({@link FormBody}: 413, 415, 400), then for a POST without the operator's token the request's
 * {@code Origin} and the session's CSRF token (403).
 */
enum WebPage {
    HOME("home", Access.PUBLIC, Access.NONE),
    LOGIN("login", Access.PUBLIC, Access.SIGN_IN),
    REGISTER("register", Access.PUBLIC, Access.SIGN_IN),
    LOGOUT("logout", Access.NONE, Access.SESSION),
    QUOTE("quote", Access.PUBLIC, Access.NONE),
    PORTFOLIO("portfolio", Access.PUBLIC, Access.NONE),
    ACCOUNT("account", Access.PUBLIC, Access.NONE),
    UPDATE("update", Access.NONE, Access.SESSION),
    BUY("buy", Access.NONE, Access.SESSION),
    SELL("sell", Access.NONE, Access.SESSION),
    /** One action of the standard mix, signed in as a user of the deck without a password: the load generator's page. */
    SCENARIO("scenario", Access.NONE, Access.OPERATOR),
    POISON("poison", Access.NONE, Access.OPERATOR),
    TIMESERIES("timeseries.csv", Access.PUBLIC, Access.NONE),
    /** GET reads the latency summary; POST (the operator's) reads it and resets it. */
    SUMMARY("summary", Access.PUBLIC, Access.OPERATOR),
    /** The consistency audit: a full scan of the database, so the operator's only. */
    AUDIT("audit", Access.OPERATOR, Access.NONE);

    /** Who may use a page with one method. */
    enum Access {
        /** The method is not allowed: 405. */
        NONE,
        /** Anyone; a page showing a user's data shows it only to that user's session. */
        PUBLIC,
        /**
         * A POST that signs a session in (login, register): its {@code Origin} must be this server
         * (a forged login from another site is refused), and when the request already has a session
         * it must also carry that session's CSRF token.
         */
        SIGN_IN,
        /** A POST on a session: the session's CSRF token, and an {@code Origin} of this server when one is sent. */
        SESSION,
        /** The operator's {@code Authorization: Bearer} token: 401 without it. */
        OPERATOR
    }

    private static final Map<String, WebPage> BY_NAME = Stream.of(values())
            .collect(Collectors.toUnmodifiableMap(p -> p.pageName, Function.identity()));

    private final String pageName;
    private final Access get;
    private final Access post;

    WebPage(String pageName, Access get, Access post) {
        this.pageName = pageName;
        this.get = get;
        this.post = post;
    }

    /** The page named {@code name} (the path after {@code /daytrader/}), or null. */
    static WebPage named(String name) {
        return BY_NAME.get(name);
    }

    String pageName() {
        return pageName;
    }

    /** Who may use this page with {@code method}; {@link Access#NONE} for a method it does not take. */
    Access access(String method) {
        return switch (method) {
            case "GET" -> get;
            case "POST" -> post;
            default -> Access.NONE;
        };
    }

    /** The {@code Allow} header's value: the methods this page takes. */
    String allow() {
        return get != Access.NONE && post != Access.NONE ? "GET, POST" : get != Access.NONE ? "GET" : "POST";
    }

    /** True when {@code method} on this page needs the operator's Bearer token. */
    boolean isOperator(String method) {
        return access(method) == Access.OPERATOR;
    }
}
