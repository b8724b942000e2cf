package org.irmi.monitors;

/** A load report on the wire could not be decoded; the message says what is wrong and where. */
public final class MalformedLoadReportException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, with offsets and bounds */
    public MalformedLoadReportException(String message) {
        super(message);
    }
}
