package org.irmi.bench.daytrader;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads httperf's end-of-run report into an {@link HttperfResult}: one pattern per report line,
 * every line required but {@code Session rate} (printed for session workloads only; -1 without it).
 * Reached through {@link Httperf#parse}.
 */
final class HttperfReportParser {

    private HttperfReportParser() {
    }

    private static final Pattern TOTAL = Pattern.compile(
            "^Total: connections (\\d+) requests (\\d+) replies (\\d+) test-duration ([\\d.]+) s", Pattern.MULTILINE);
    private static final Pattern CONN_RATE = Pattern.compile(
            "^Connection rate: ([\\d.]+) conn/s \\(([\\d.]+) ms/conn, <=(\\d+) concurrent connections\\)", Pattern.MULTILINE);
    private static final Pattern REQ_RATE = Pattern.compile(
            "^Request rate: ([\\d.]+) req/s \\(([\\d.]+) ms/req\\)", Pattern.MULTILINE);
    private static final Pattern REPLY_RATE = Pattern.compile(
            "^Reply rate \\[replies/s\\]: min ([\\d.]+) avg ([\\d.]+) max ([\\d.]+) stddev ([\\d.]+) \\((\\d+) samples\\)",
            Pattern.MULTILINE);
    private static final Pattern REPLY_TIME = Pattern.compile(
            "^Reply time \\[ms\\]: response ([\\d.]+) transfer ([\\d.]+)", Pattern.MULTILINE);
    private static final Pattern STATUS = Pattern.compile(
            "^Reply status: 1xx=(\\d+) 2xx=(\\d+) 3xx=(\\d+) 4xx=(\\d+) 5xx=(\\d+)", Pattern.MULTILINE);
    private static final Pattern ERRORS1 = Pattern.compile(
            "^Errors: total (\\d+) client-timo (\\d+) socket-timo (\\d+) connrefused (\\d+) connreset (\\d+)", Pattern.MULTILINE);
    private static final Pattern ERRORS2 = Pattern.compile(
            "^Errors: fd-unavail (\\d+) addrunavail (\\d+) ftab-full (\\d+) other (\\d+)", Pattern.MULTILINE);
    private static final Pattern SESSION_RATE = Pattern.compile(
            "^Session rate \\[sess/s\\]: min ([\\d.]+) avg ([\\d.]+) max ([\\d.]+) stddev ([\\d.]+) \\((\\d+)/(\\d+)\\)",
            Pattern.MULTILINE);

    /**
     * Parses httperf's report. Every line but {@code Session rate} (sessions only) must be present.
     *
     * @throws IllegalArgumentException naming the first missing line
     */
    static HttperfResult parse(String commandLine, String output) {
        Matcher total = need(TOTAL, output, "Total");
        Matcher conn = need(CONN_RATE, output, "Connection rate");
        Matcher req = need(REQ_RATE, output, "Request rate");
        Matcher reply = need(REPLY_RATE, output, "Reply rate");
        Matcher time = need(REPLY_TIME, output, "Reply time");
        Matcher status = need(STATUS, output, "Reply status");
        Matcher e1 = need(ERRORS1, output, "Errors: total");
        Matcher e2 = need(ERRORS2, output, "Errors: fd-unavail");
        Matcher sess = SESSION_RATE.matcher(output);
        boolean hasSessions = sess.find();
        return new HttperfResult(commandLine,
                l(total, 1), l(total, 2), l(total, 3), d(total, 4),
                d(conn, 1), d(conn, 2), l(conn, 3),
                d(req, 1), d(req, 2),
                d(reply, 1), d(reply, 2), d(reply, 3), d(reply, 4), l(reply, 5),
                d(time, 1), d(time, 2),
                l(status, 1), l(status, 2), l(status, 3), l(status, 4), l(status, 5),
                l(e1, 1), l(e1, 2), l(e1, 3), l(e1, 4), l(e1, 5),
                l(e2, 1), l(e2, 2), l(e2, 3), l(e2, 4),
                hasSessions ? d(sess, 1) : -1, hasSessions ? d(sess, 2) : -1, hasSessions ? d(sess, 3) : -1,
                hasSessions ? d(sess, 4) : -1, hasSessions ? l(sess, 5) : -1, hasSessions ? l(sess, 6) : -1,
                output);
    }

    private static Matcher need(Pattern p, String output, String line) {
        Matcher m = p.matcher(output);
        if (!m.find()) {
            throw new IllegalArgumentException("httperf output lacks its '" + line + "' line; output was:\n" + output);
        }
        return m;
    }

    private static long l(Matcher m, int group) {
        return Long.parseLong(m.group(group));
    }

    private static double d(Matcher m, int group) {
        return Double.parseDouble(m.group(group));
    }
}
