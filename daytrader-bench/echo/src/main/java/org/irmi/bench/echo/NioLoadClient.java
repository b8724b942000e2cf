package org.irmi.bench.echo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.irmi.bench.echo.internal.IorInfo;
import org.irmi.bench.echo.internal.NioGiopClient;

/**
 * The echo benchmark's other load client: every connection held by one Java thread
 * ({@link NioGiopClient}), speaking GIOP itself, with the command line and output of the omniORB
 * C++ client ({@code echo_load_client}), so that {@code EchoBenchmark --client nio} runs it in its place.
 *
 * <p>The C++ client gives each connection a thread of its own: at 1,000 connections its 1,000
 * threads cost more CPU per call than the servers they measure, on the same cores. This one costs
 * one thread whatever the connections.
 *
 * <p>Usage: {@code NioLoadClient -ior-file F -connections N -payload B -warmup-ms W -duration-ms D
 * [-ramp-timeout-ms R] [-hold-until-eof]}. It prints {@code ECHO-MEASURE start} and
 * {@code ECHO-MEASURE end} at the measurement's marks, then an {@code ECHO-LOAD} line and an
 * {@code ECHO-HIST} line (nanoseconds, each recorded value with its count), as the C++ client does.
 * {@code errors} counts the calls that failed in the measurement and the replies missing after it;
 * {@code errors_all} adds the ramp's failed connects and calls (failures in the warm-up are printed
 * to stderr). {@code mismatches} is always 0: a wrong echo is counted in {@code errors}.
 */
public final class NioLoadClient {

    private NioLoadClient() {
    }

    /** Entry point. */
    public static void main(String[] args) throws IOException {
        Path iorFile = null;
        int connections = 1;
        int payload = 100;
        long warmupMs = 1000;
        long durationMs = 3000;
        long rampTimeoutMs = 30_000;
        boolean holdUntilEof = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-hold-until-eof")) {
                holdUntilEof = true;
                continue;
            }
            if (a.startsWith("-ORB")) {
                i++; // an omniORB option and its value: nothing to do here
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + a);
            }
            String v = args[++i];
            switch (a) {
                case "-ior-file" -> iorFile = Path.of(v);
                case "-connections" -> connections = Integer.parseInt(v);
                case "-payload" -> payload = Integer.parseInt(v);
                case "-warmup-ms" -> warmupMs = Long.parseLong(v);
                case "-duration-ms" -> durationMs = Long.parseLong(v);
                case "-ramp-timeout-ms" -> rampTimeoutMs = Long.parseLong(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (iorFile == null) {
            throw new IllegalArgumentException("-ior-file is required");
        }
        IorInfo ior = IorInfo.parse(Files.readString(iorFile));
        Histogram measured = new Histogram(3);
        try (NioGiopClient client = new NioGiopClient(ior, payload)) {
            long rampStart = System.nanoTime();
            NioGiopClient.PhaseResult ramp = client.ramp(connections, 128, Duration.ofSeconds(10),
                    Duration.ofMillis(rampTimeoutMs));
            long rampMs = (System.nanoTime() - rampStart) / 1_000_000;
            NioGiopClient.PhaseResult loop = client.closedLoop(Duration.ofMillis(warmupMs), Duration.ofMillis(durationMs),
                    Duration.ofSeconds(10), start -> System.out.println(start ? "ECHO-MEASURE start" : "ECHO-MEASURE end"),
                    measured);
            ramp.firstErrors().forEach(e -> System.err.println("nio-load-client: ramp: " + e));
            loop.firstErrors().forEach(e -> System.err.println("nio-load-client: loop: " + e));
            double seconds = loop.millis() / 1e3;
            System.out.printf(Locale.ROOT, "ECHO-LOAD connections=%d connected=%d payload=%d seconds=%.3f calls=%d errors=%d"
                            + " mismatches=0 calls_per_sec=%.1f p50_us=%.1f p99_us=%.1f ramp_ms=%d stuck=0 errors_all=%d%n",
                    connections, ramp.connected(), payload, seconds, loop.calls(), loop.errors(),
                    seconds == 0 ? 0 : loop.calls() / seconds, measured.getValueAtPercentile(50) / 1e3,
                    measured.getValueAtPercentile(99) / 1e3, rampMs,
                    loop.errors() + ramp.errors() + ramp.connectFailures());
            System.out.println("ECHO-HIST " + encode(measured));
            System.out.flush();
            if (holdUntilEof) {
                InputStream in = System.in;
                byte[] buf = new byte[256];
                while (in.read(buf) >= 0) {
                    // the connections stay open until whoever started this closes its stdin
                }
            }
        }
    }

    /** {@code value:count,...}, as the C++ client's {@code ECHO-HIST} line. */
    private static String encode(Histogram h) {
        StringBuilder b = new StringBuilder();
        for (HistogramIterationValue v : h.recordedValues()) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(h.medianEquivalentValue(v.getValueIteratedTo())).append(':').append(v.getCountAtValueIteratedTo());
        }
        return b.toString();
    }
}
