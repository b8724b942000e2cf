package org.irmi.bench.daytrader;

import java.io.IOException;

/** httperf is not installed and could not be installed; the message gives the command to run. */
public final class HttperfMissingException extends IOException {
    private static final long serialVersionUID = 1L;

    HttperfMissingException(String message) {
        super(message);
    }
}
