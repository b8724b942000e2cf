package org.irmi.bench.daytrader.internal;

/**
 * A rendered reply of the web tier: its HTTP status, content type and body. Immutable.
 *
 * @param status      the HTTP status
 * @param contentType the {@code Content-Type}
 * @param body        the body, sent as UTF-8
 */
record WebReply(int status, String contentType, String body) {
    /** Plain text, UTF-8. */
    static final String TEXT = "text/plain; charset=utf-8";
    /** HTML, UTF-8. */
    static final String HTML = "text/html; charset=utf-8";

    /** @return an HTML page with status 200 */
    static WebReply html(String body) {
        return new WebReply(200, HTML, body);
    }

    /** @return a text reply with status 200 */
    static WebReply text(String body) {
        return new WebReply(200, TEXT, body);
    }

    /** @return a text reply of {@code message} (and a line break) with an error status */
    static WebReply error(int status, String message) {
        return new WebReply(status, TEXT, message + "\n");
    }
}
