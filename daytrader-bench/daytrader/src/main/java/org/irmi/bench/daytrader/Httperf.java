package org.irmi.bench.daytrader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The httperf harness: runs Debian's {@code httperf} binary on a {@link HttperfWorkload} and parses its
 * output into an {@link HttperfResult}.
 *
 * <pre>
 * HttperfResult r = Httperf.run(Httperf.paperLoad("127.0.0.1", port, 60, token), Duration.ofMinutes(5));
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

    /**
     * The paper's load: 4 concurrent sessions POSTing {@code /daytrader/scenario} (the operator's
     * page: it signs sessions in as users of the deck), 0.1 s think time between requests, each
     * session lasting about {@code seconds} (about 9 requests per second per session while
     * responses stay near 10 ms).
     *
     * @param operatorToken the web tier's operator token ({@code DayTraderDeployment.operatorToken()})
     */
    public static HttperfWorkload paperLoad(String server, int port, int seconds, String operatorToken) {
        int calls = Math.max(1, (int) Math.round(seconds / 0.11));
        return HttperfWorkload.builder(server, port).uri("/daytrader/scenario").method("POST").wsess(4, calls, 0.1).rate(100)
                .operatorToken(operatorToken).build();
    }

    /**
     * Scripted sessions ({@link SessionLog}): {@code sessions} concurrent sessions replaying
     * {@code file}, {@code thinkSeconds} between pages. Forms are posted url-encoded, so every
     * request carries that content type (a GET ignores it), and an {@code Origin} naming the server
     * with a {@code Host} that names its port too ({@code --server-name}), as a browser's would: the
     * web tier refuses a login without them. Returns the builder, so a caller can still pin it
     * ({@link HttperfWorkload.Builder#cpus}) or add options before {@code build()}.
     */
    public static HttperfWorkload.Builder sessionLog(String server, int port, int sessions, double thinkSeconds, Path file) {
        return HttperfWorkload.builder(server, port).wsesslog(sessions, thinkSeconds, file).rate(100).serverName(server + ":" + port)
                .header("Origin", "http://" + server + ":" + port)
                .header("Content-Type", "application/x-www-form-urlencoded");
    }

    /**
     * The heavier mix that saturates the backend: {@code sessions} concurrent sessions of
     * {@code callsPerSession} scenario requests (POSTs, the operator's) each, no think time.
     */
    public static HttperfWorkload saturation(String server, int port, int sessions, int callsPerSession, String operatorToken) {
        return HttperfWorkload.builder(server, port).uri("/daytrader/scenario").method("POST").wsess(sessions, callsPerSession, 0)
                .rate(Math.max(100, sessions * 10)).operatorToken(operatorToken).build();
    }

    /**
     * Parses httperf's report. Every line but {@code Session rate} (sessions only) must be present.
     *
     * @throws IllegalArgumentException naming the first missing line
     */
    public static HttperfResult parse(String commandLine, String output) {
        return HttperfReportParser.parse(commandLine, output);
    }

    /**
     * Runs httperf and parses its report.
     *
     * @param limit the run is killed, and an IOException thrown, when it takes longer
     */
    public static HttperfResult run(HttperfWorkload workload, Duration limit) throws IOException, InterruptedException {
        String binary = HttperfBinary.locate();
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
        return HttperfReportParser.parse(workload.mask(String.join(" ", cmd)), workload.mask(text));
    }
}
