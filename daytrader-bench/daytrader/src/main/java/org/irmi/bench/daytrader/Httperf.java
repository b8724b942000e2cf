package org.irmi.bench.daytrader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The httperf harness: runs Debian's {@code httperf} binary on a {@link Workload} and parses its
 * output into an {@link HttperfResult}.
 *
 * <pre>
 * HttperfResult r = Httperf.run(Httperf.paperLoad("127.0.0.1", port, 60), Duration.ofMinutes(5));
 * if (!r.isValid()) throw new IllegalStateException(r.invalidReason());
 * </pre>
 *
 * <p>When {@code httperf} is not on the PATH, {@link #run} tries {@code scripts/prereqs.sh} (found
 * from the working directory upwards), and otherwise throws {@link HttperfMissingException} with
 * the exact command to run.
 */
public final class Httperf {
    /** The install command given to the user when httperf is missing. */
    public static final String INSTALL_COMMAND = "sudo apt-get install -y httperf";

    private Httperf() {
    }

    /** httperf is not installed and could not be installed. */
    public static final class HttperfMissingException extends IOException {
        private static final long serialVersionUID = 1L;

        HttperfMissingException(String message) {
            super(message);
        }
    }

    /**
     * The paper's load: 4 concurrent sessions POSTing {@code /daytrader/scenario} (the operator's
     * page: it signs sessions in as users of the deck), 0.1 s think time between requests, each
     * session lasting about {@code seconds} (about 9 requests per second per session while
     * responses stay near 10 ms).
     *
     * @param operatorToken the web tier's operator token ({@code DayTraderDeployment.operatorToken()})
     */
    public static Workload paperLoad(String server, int port, int seconds, String operatorToken) {
        int calls = Math.max(1, (int) Math.round(seconds / 0.11));
        return Workload.builder(server, port).uri("/daytrader/scenario").method("POST").wsess(4, calls, 0.1).rate(100)
                .operatorToken(operatorToken).build();
    }

    /**
     * Scripted sessions ({@link SessionLog}): {@code sessions} concurrent sessions replaying
     * {@code file}, {@code thinkSeconds} between pages. Forms are posted url-encoded, so every
     * request carries that content type (a GET ignores it), and an {@code Origin} naming the server
     * with a {@code Host} that names its port too ({@code --server-name}), as a browser's would: the
     * web tier refuses a login without them. Returns the builder, so a caller can still pin it
     * ({@link Workload.Builder#cpus}) or add options before {@code build()}.
     */
    public static Workload.Builder sessionLog(String server, int port, int sessions, double thinkSeconds, Path file) {
        return Workload.builder(server, port).wsesslog(sessions, thinkSeconds, file).rate(100).serverName(server + ":" + port)
                .header("Origin", "http://" + server + ":" + port)
                .header("Content-Type", "application/x-www-form-urlencoded");
    }

    /**
     * The heavier mix that saturates the backend: {@code sessions} concurrent sessions of
     * {@code callsPerSession} scenario requests (POSTs, the operator's) each, no think time.
     */
    public static Workload saturation(String server, int port, int sessions, int callsPerSession, String operatorToken) {
        return Workload.builder(server, port).uri("/daytrader/scenario").method("POST").wsess(sessions, callsPerSession, 0)
                .rate(Math.max(100, sessions * 10)).operatorToken(operatorToken).build();
    }

    /**
     * Runs httperf and parses its report.
     *
     * @param limit the run is killed, and an IOException thrown, when it takes longer
     */
    public static HttperfResult run(Workload workload, Duration limit) throws IOException, InterruptedException {
        String binary = locate();
        List<String> cmd = new ArrayList<>(workload.cpuPrefix());
        cmd.add(binary);
        cmd.addAll(workload.arguments());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[][] out = new byte[1][];
        Thread reader = new Thread(() -> {
            try (InputStream in = p.getInputStream()) {
                out[0] = in.readAllBytes();
            } catch (IOException e) {
                out[0] = ("(output lost: " + e + ")").getBytes(StandardCharsets.UTF_8);
            }
        }, "httperf-output");
        reader.start();
        if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            reader.join(5_000);
            throw new IOException("httperf did not finish within " + limit.toSeconds() + " s: " + workload.mask(String.join(" ", cmd)));
        }
        reader.join(5_000);
        String text = out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8);
        if (p.exitValue() != 0 && !text.contains("Total: connections")) {
            throw new IOException("httperf exited with " + p.exitValue() + ": " + workload.mask(String.join(" ", cmd)) + "\n"
                    + workload.mask(text));
        }
        return parse(workload.mask(String.join(" ", cmd)), workload.mask(text));
    }

    /** The httperf binary's path; installs it through scripts/prereqs.sh if it can. */
    static String locate() throws IOException, InterruptedException {
        String found = onPath("httperf");
        if (found != null) {
            return found;
        }
        Path prereqs = findPrereqs();
        if (prereqs != null) {
            Process p = new ProcessBuilder(prereqs.toString()).inheritIO().start();
            if (p.waitFor(10, TimeUnit.MINUTES) && p.exitValue() == 0) {
                found = onPath("httperf");
                if (found != null) {
                    return found;
                }
            } else {
                p.destroyForcibly();
            }
        }
        throw new HttperfMissingException("httperf is not installed and could not be installed here. Run: " + INSTALL_COMMAND);
    }

    private static String onPath(String name) {
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/bin:/usr/local/bin" : path).split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    private static Path findPrereqs() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("scripts").resolve("prereqs.sh");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
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
    public static HttperfResult parse(String commandLine, String output) {
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

    /**
     * One httperf invocation's options. Build with {@link #builder}; {@link #arguments()} is the
     * command line after the binary.
     */
    public static final class Workload {
        /** What stands for the operator's token in every printed command line. */
        public static final String MASKED_TOKEN = "***";
        private final List<String> arguments;
        private final String cpus;
        private final String secret;

        private Workload(List<String> arguments, String cpus, String secret) {
            this.arguments = List.copyOf(arguments);
            this.cpus = cpus;
            this.secret = secret;
        }

        /** {@code text} with the operator's token, if this workload carries one, replaced by {@link #MASKED_TOKEN}. */
        String mask(String text) {
            return secret == null ? text : text.replace(secret, MASKED_TOKEN);
        }

        /**
         * The command line to print: {@link #arguments()} with the operator's token masked. Only
         * {@link #arguments()} holds it, for running httperf.
         */
        public String commandLine() {
            return mask("httperf " + String.join(" ", arguments));
        }

        /** @return {@code taskset -c CPUS} when the workload is pinned ({@link Builder#cpus}), else nothing */
        List<String> cpuPrefix() {
            return cpus == null ? List.of() : List.of("taskset", "-c", cpus);
        }

        public List<String> arguments() {
            return arguments;
        }

        public static Builder builder(String server, int port) {
            return new Builder(server, port);
        }

        /** The command line with the token masked ({@link #commandLine()}). */
        @Override
        public String toString() {
            return commandLine();
        }

        /** Workload options, validated as they are set. */
        public static final class Builder {
            private final String server;
            private final int port;
            private String uri = "/daytrader/scenario";
            private String wsess;
            private String wsesslog;
            private double rate = -1;
            private int burstLength = -1;
            private boolean sessionCookie = true;
            private double timeoutSeconds = 30;
            private double thinkTimeoutSeconds = -1;
            private boolean hog;
            private String period;
            private int numConns = -1;
            private int numCalls = -1;
            private int maxConnections = -1;
            private final List<String> extra = new ArrayList<>();
            private final List<String> headers = new ArrayList<>();
            private String cpus;
            private String method;
            private String serverName;
            private String operatorToken;

            private Builder(String server, int port) {
                if (port < 1 || port > 65535) {
                    throw new IllegalArgumentException("port must be 1-65535, was " + port);
                }
                this.server = server;
                this.port = port;
            }

            public Builder uri(String uri) {
                if (!uri.startsWith("/")) {
                    throw new IllegalArgumentException("uri must start with /, was '" + uri + "'");
                }
                this.uri = uri;
                return this;
            }

            /** {@code --method=M}: the method of requests that the session log does not give one (default GET). */
            public Builder method(String method) {
                if (!method.matches("[A-Z]+")) {
                    throw new IllegalArgumentException("method must be an HTTP method such as GET or POST, was '" + method + "'");
                }
                this.method = method;
                return this;
            }

            /** {@code --server-name=S}: the {@code Host} header (httperf's own leaves out the port). */
            public Builder serverName(String name) {
                this.serverName = name;
                return this;
            }

            /**
             * A request header on every request. httperf takes one {@code --add-header}, so the
             * headers given here become one option.
             */
            public Builder header(String name, String value) {
                if (!name.matches("[A-Za-z0-9-]+") || value.contains("\n") || value.contains("\r") || value.contains("\\")) {
                    throw new IllegalArgumentException("header " + name + " must be a token and its value one line without"
                            + " backslashes");
                }
                headers.add(name + ": " + value);
                return this;
            }

            /**
             * Sends the web tier's operator token as {@code Authorization: Bearer} on every request
             * (the operator's pages: scenario, poison, audit). The token is masked in
             * {@link Workload#commandLine()}, {@link Workload#toString()} and the result's command line.
             */
            public Builder operatorToken(String token) {
                if (token == null || !token.matches("[0-9a-f]{64}")) {
                    throw new IllegalArgumentException("the operator token must be 64 hex digits (the web tier's token file)");
                }
                this.operatorToken = token;
                return this;
            }

            /** {@code --wsess=sessions,calls,think}: sessions of {@code calls} requests with {@code thinkSeconds} between bursts. */
            public Builder wsess(int sessions, int calls, double thinkSeconds) {
                if (sessions < 1 || calls < 1 || thinkSeconds < 0) {
                    throw new IllegalArgumentException("wsess needs sessions >= 1, calls >= 1, think >= 0; was "
                            + sessions + "," + calls + "," + thinkSeconds);
                }
                this.wsess = sessions + "," + calls + "," + fmt(thinkSeconds);
                this.wsesslog = null;
                return this;
            }

            /** {@code --wsesslog=sessions,think,file}: scripted sessions (see {@link SessionLog}). */
            public Builder wsesslog(int sessions, double thinkSeconds, Path file) {
                if (sessions < 1 || thinkSeconds < 0) {
                    throw new IllegalArgumentException("wsesslog needs sessions >= 1 and think >= 0");
                }
                this.wsesslog = sessions + "," + fmt(thinkSeconds) + "," + file;
                this.wsess = null;
                return this;
            }

            /** New sessions (or connections) per second. */
            public Builder rate(double perSecond) {
                if (!(perSecond > 0)) {
                    throw new IllegalArgumentException("rate must be > 0, was " + perSecond);
                }
                this.rate = perSecond;
                return this;
            }

            public Builder burstLength(int n) {
                if (n < 1) {
                    throw new IllegalArgumentException("burst length must be >= 1, was " + n);
                }
                this.burstLength = n;
                return this;
            }

            /** {@code --session-cookie} (on by default): each session keeps its DTSESSION cookie. */
            public Builder sessionCookie(boolean on) {
                this.sessionCookie = on;
                return this;
            }

            /** A reply slower than this counts as a client timeout (default 30 s). */
            public Builder timeout(double seconds) {
                if (!(seconds > 0)) {
                    throw new IllegalArgumentException("timeout must be > 0, was " + seconds);
                }
                this.timeoutSeconds = seconds;
                return this;
            }

            public Builder thinkTimeout(double seconds) {
                this.thinkTimeoutSeconds = seconds;
                return this;
            }

            public Builder hog(boolean on) {
                this.hog = on;
                return this;
            }

            /** {@code --period=[d|e|u|v]T1[,T2]}, e.g. {@code e0.5}. */
            public Builder period(String period) {
                if (!period.matches("[deuv][\\d.]+(,[\\d.]+)?")) {
                    throw new IllegalArgumentException("period must look like d0.1, e0.5 or u0.1,0.3; was '" + period + "'");
                }
                this.period = period;
                return this;
            }

            public Builder numConns(int n) {
                this.numConns = n;
                return this;
            }

            public Builder numCalls(int n) {
                this.numCalls = n;
                return this;
            }

            public Builder maxConnections(int n) {
                this.maxConnections = n;
                return this;
            }

            /** Any other httperf option, verbatim (e.g. {@code --add-header=...}). */
            public Builder extra(String option) {
                this.extra.add(option);
                return this;
            }

            /** Runs httperf pinned to these CPUs ({@code taskset -c}, e.g. {@code "0"}); null (the default) does not pin. */
            public Builder cpus(String cpus) {
                if (cpus != null && !cpus.matches("[0-9]+([,-][0-9]+)*")) {
                    throw new IllegalArgumentException("cpus must be a taskset list such as 0 or 0-1, was '" + cpus + "'");
                }
                this.cpus = cpus;
                return this;
            }

            public Workload build() {
                List<String> a = new ArrayList<>();
                a.add("--server=" + server);
                a.add("--port=" + port);
                a.add("--uri=" + uri);
                if (serverName != null) {
                    a.add("--server-name=" + serverName);
                }
                if (method != null) {
                    a.add("--method=" + method);
                }
                if (wsess != null) {
                    a.add("--wsess=" + wsess);
                }
                if (wsesslog != null) {
                    a.add("--wsesslog=" + wsesslog);
                }
                if (rate > 0) {
                    a.add("--rate=" + fmt(rate));
                }
                if (burstLength > 0) {
                    a.add("--burst-length=" + burstLength);
                }
                if (sessionCookie && (wsess != null || wsesslog != null)) {
                    a.add("--session-cookie");
                }
                a.add("--timeout=" + fmt(timeoutSeconds));
                if (thinkTimeoutSeconds >= 0) {
                    a.add("--think-timeout=" + fmt(thinkTimeoutSeconds));
                }
                if (hog) {
                    a.add("--hog");
                }
                if (period != null) {
                    a.add("--period=" + period);
                }
                if (numConns > 0) {
                    a.add("--num-conns=" + numConns);
                }
                if (numCalls > 0) {
                    a.add("--num-calls=" + numCalls);
                }
                if (maxConnections > 0) {
                    a.add("--max-connections=" + maxConnections);
                }
                List<String> all = new ArrayList<>(headers);
                if (operatorToken != null) {
                    all.add("Authorization: Bearer " + operatorToken);
                }
                if (!all.isEmpty()) {
                    a.add("--add-header=" + String.join("\\n", all) + "\\n");
                }
                a.addAll(extra);
                return new Workload(a, cpus, operatorToken);
            }

            private static String fmt(double v) {
                return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
            }
        }
    }
}
