package org.irmi.bench.daytrader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One httperf invocation's options, run by {@link Httperf#run}. Build with {@link #builder}, or
 * start from one of {@link Httperf}'s loads; {@link #arguments()} is the command line after the binary.
 */
public final class HttperfWorkload {
    /** What stands for the operator's token in every printed command line. */
    public static final String MASKED_TOKEN = "***";
    private final List<String> arguments;
    private final String cpus;
    private final String secret;

    private HttperfWorkload(List<String> arguments, String cpus, String secret) {
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
         * {@link HttperfWorkload#commandLine()}, {@link HttperfWorkload#toString()} and the result's command line.
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

        public HttperfWorkload build() {
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
            return new HttperfWorkload(a, cpus, operatorToken);
        }

        private static String fmt(double v) {
            return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
        }
    }
}
