package org.irmi.orb.internal.rmi;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.irmi.orb.internal.BadInputLog;
import org.slf4j.LoggerFactory;

/**
 * GlassFish ORB's own log lines, put through one rate-limited {@link BadInputLog} line instead of
 * java.util.logging's console: at most one WARN line a second (with the number of lines left out),
 * the message and the exception's {@code toString}, never a stack trace.
 *
 * <p>Why: in an I-RMI process GlassFish's classes only marshal RMI-IIOP values (its {@code Util},
 * value handler and stub delegate; JacORB is the ORB), so what they log is about values a peer
 * chose. GlassFish logs each exception of its wrappers as it makes it, under
 * {@value #LOGGER}{@code .<area>}, at WARNING with its stack trace: a client sending
 * custom-marshalled data without its default data ({@code ORBIO00204}, "Default data not sent or
 * already read") wrote a stack trace per request. The value filter counts and logs those requests
 * itself ({@code malformed}).
 *
 * <p>Installed once per JVM, when I-RMI's {@code Util} delegate is made ({@link IrmiUtil}). An
 * operator who wants GlassFish's own lines back sets the JUL logger {@value #LOGGER}'s
 * {@code useParentHandlers} to true and removes this handler.
 *
 * <p>THREADS: any thread (JUL calls {@link #publish} on the logging thread); lock-free.
 */
final class GlassFishLogBridge extends Handler {

    /** The parent of every logger GlassFish ORB's exception wrappers log to ({@code StandardLogger}). */
    static final String LOGGER = "javax.enterprise.resource.corba";

    /** Held strongly: JUL keeps loggers weakly, and a collected logger loses its configuration. */
    private static final Logger GLASSFISH = Logger.getLogger(LOGGER);
    private static final BadInputLog LOG = new BadInputLog(LoggerFactory.getLogger(GlassFishLogBridge.class));
    private static boolean installed;

    private GlassFishLogBridge() {
    }

    /** Routes GlassFish's lines through the rate-limited line. Idempotent. */
    static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        GLASSFISH.addHandler(new GlassFishLogBridge());
        GLASSFISH.setUseParentHandlers(false);
    }

    @Override
    public void publish(LogRecord record) {
        if (record == null || record.getLevel().intValue() < Level.INFO.intValue()) {
            return; // below what JUL's console showed by default
        }
        String message;
        try {
            message = new java.util.logging.SimpleFormatter().formatMessage(record);
        } catch (RuntimeException e) {
            message = String.valueOf(record.getMessage());
        }
        Throwable thrown = record.getThrown();
        // one line: GlassFish's messages carry a CONTEXT on a line of their own
        LOG.note("GlassFish ORB ({}): {}{}", record.getLoggerName(), oneLine(message),
                thrown == null ? "" : " (" + oneLine(thrown.toString()) + ")");
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s*\\R\\s*", " ");
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
