package org.irmi.orb.isolation;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.util.Map;
import java.util.Properties;

import org.irmi.monitors.LoopbackHttpServer;
import org.irmi.monitors.LoopbackHttpServer.Response;

/**
 * The live dashboard of one ORB's isolation points: an HTML page at {@code /} that polls two JSON
 * resources and draws them, the same JSON for scripts, and the chart library from its WebJar.
 *
 * <pre>
 *   GET /                         the page (HTML, script and style from this jar; no CDN)
 *   GET /api/state                every point's state, the SLA and its objectives ({@link DashboardJson#state})
 *   GET /api/decisions?after=N&amp;limit=M  decision events numbered above N, newest M (default 0, 100)
 *   GET /uplot/uPlot.iife.min.js  the chart library (org.webjars.npm:uplot), and /uplot/uPlot.min.css
 * </pre>
 * Served by a {@link LoopbackHttpServer} of its own (loopback unless {@value #ADDRESS_PROPERTY}
 * says otherwise), with 4 workers: the page loads five resources. Handlers read only snapshots
 * the isolation ticker published, never the selector thread's state.
 *
 * <p>THREAD-SAFE: {@link #close()} from any thread, more than once.
 */
public final class Dashboard implements AutoCloseable {

    /** ORB or system property: the dashboard's TCP port (0 = any free port); the dashboard is off without it. */
    public static final String PORT_PROPERTY = "irmi.dashboard.port";
    /** ORB or system property: the address to bind, the loopback address unless set (e.g. {@code 0.0.0.0}). */
    public static final String ADDRESS_PROPERTY = "irmi.dashboard.address";

    private static final String RESOURCES = "/org/irmi/orb/dashboard/";
    private static final String UPLOT = "META-INF/resources/webjars/uplot/%s/dist/%s";

    private final LoopbackHttpServer server;

    private Dashboard(LoopbackHttpServer server) {
        this.server = server;
    }

    /**
     * Starts serving the dashboard of {@code isolation}.
     *
     * @param address the address to bind (null: loopback)
     * @param port    the port, 0 for any free one
     * @throws IOException naming {@value #PORT_PROPERTY} when the port cannot be bound
     */
    static Dashboard start(OrbIsolation isolation, InetAddress address, int port) throws IOException {
        DashboardJson json = new DashboardJson(isolation);
        String uplotVersion = uplotVersion();
        LoopbackHttpServer.Builder b = LoopbackHttpServer.builder("dashboard").port(port).workers(4)
                .route("/", r -> resource("index.html", "text/html; charset=utf-8"))
                .route("/index.html", r -> resource("index.html", "text/html; charset=utf-8"))
                .route("/dashboard.js", r -> resource("dashboard.js", "text/javascript; charset=utf-8"))
                .route("/dashboard.css", r -> resource("dashboard.css", "text/css; charset=utf-8"))
                .route("/uplot/uPlot.iife.min.js", r -> webjar(uplotVersion, "uPlot.iife.min.js",
                        "text/javascript; charset=utf-8"))
                .route("/uplot/uPlot.min.css", r -> webjar(uplotVersion, "uPlot.min.css", "text/css; charset=utf-8"))
                .route("/api/state", r -> Response.ok("application/json", json.state()))
                .route("/api/decisions", r -> Response.ok("application/json", json.decisions(
                        number(r.param("after", "0"), "after", 0, Long.MAX_VALUE),
                        (int) number(r.param("limit", "100"), "limit", 1, RecentDecisions.CAPACITY))));
        if (address != null) {
            b.bindAddress(address);
        }
        try {
            return new Dashboard(b.start());
        } catch (IOException e) {
            throw new IOException(PORT_PROPERTY + ": " + e.getMessage(), e);
        }
    }

    /** @return the page's URL, e.g. {@code http://127.0.0.1:9470/} */
    public String url() {
        return server.baseUrl() + "/";
    }

    /** @return the bound port */
    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
    }

    /** A query number within bounds, or IllegalArgumentException (answered 400) naming it. */
    private static long number(String text, String name, long min, long max) {
        long v;
        try {
            v = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was \"" + shorten(text) + "\"");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " must be " + min + ".." + max + ", was " + v);
        }
        return v;
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    private static Response resource(String name, String type) throws IOException {
        try (InputStream in = Dashboard.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                return null;
            }
            return new Response(200, type, in.readAllBytes(), Map.of("Cache-Control", "no-cache"));
        }
    }

    private static Response webjar(String version, String file, String type) throws IOException {
        ClassLoader cl = Dashboard.class.getClassLoader();
        try (InputStream in = cl.getResourceAsStream(String.format(UPLOT, version, file))) {
            if (in == null) {
                return Response.text(500, "the uPlot WebJar (org.webjars.npm:uplot) is not on the class path");
            }
            return new Response(200, type, in.readAllBytes(), Map.of("Cache-Control", "max-age=86400"));
        }
    }

    /** The WebJar's version, from its Maven metadata (so an upgrade of the dependency needs no change here). */
    private static String uplotVersion() {
        try (InputStream in = Dashboard.class.getClassLoader()
                .getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            if (in == null) {
                return "missing";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "missing");
        } catch (IOException e) {
            return "missing";
        }
    }
}
