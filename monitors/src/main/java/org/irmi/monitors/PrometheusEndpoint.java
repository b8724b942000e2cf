package org.irmi.monitors;

import java.io.IOException;
import java.util.Objects;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * An optional Prometheus scrape endpoint: {@code GET http://127.0.0.1:<port>/metrics} answers with the
 * registry's text exposition. It is a {@link LoopbackHttpServer} with one route: it binds to the
 * loopback address only (put a proxy in front to expose it), answers every other path with 404,
 * every other method with 405, a request body with 413, headers over {@link #MAX_REQUEST_BYTES}
 * with 431, and cuts off a client whose request is not whole within {@link #REQUEST_DEADLINE_MILLIS}.
 * At most {@link #WORKERS} requests are served at once with {@link #WORKERS} more waiting. A local
 * process that keeps four slow connections open can still make scrapes fail; the endpoint is on
 * loopback only.
 *
 * <p>Metrics are computed at scrape time by the monitors' gauges; nothing runs between scrapes.
 *
 * <p>THREAD-SAFE: {@link #close()} may be called from any thread, more than once.
 */
public final class PrometheusEndpoint implements AutoCloseable {

    /** The scrape path. */
    public static final String PATH = "/metrics";
    /** How long a client has to send its whole request (line and headers). */
    public static final int REQUEST_DEADLINE_MILLIS = LoopbackHttpServer.DEFAULT_REQUEST_DEADLINE_MILLIS;
    /** The most bytes a request's line and headers may take. */
    public static final int MAX_REQUEST_BYTES = LoopbackHttpServer.DEFAULT_MAX_REQUEST_BYTES;
    /** Requests served at once (and as many more queued). */
    public static final int WORKERS = LoopbackHttpServer.DEFAULT_WORKERS;
    /** The exposition format's content type. */
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final LoopbackHttpServer server;

    private PrometheusEndpoint(PrometheusMeterRegistry registry, LoopbackHttpServer server) {
        this.registry = registry;
        this.server = server;
    }

    /**
     * Starts serving a registry.
     *
     * @param registry the registry to expose
     * @param port     TCP port on 127.0.0.1; 0 picks a free one (see {@link #port()})
     * @return the running endpoint
     * @throws IOException if the port cannot be bound (the message names it)
     */
    public static PrometheusEndpoint start(PrometheusMeterRegistry registry, int port) throws IOException {
        return start(registry, port, Clock.system());
    }

    /** As {@link #start(PrometheusMeterRegistry, int)}, with requests' deadlines on {@code clock} (tests). */
    static PrometheusEndpoint start(PrometheusMeterRegistry registry, int port, Clock clock) throws IOException {
        Objects.requireNonNull(registry, "registry");
        LoopbackHttpServer server = LoopbackHttpServer.builder("prometheus").port(port).clock(clock)
                .route(PATH, request -> LoopbackHttpServer.Response.ok(CONTENT_TYPE, registry.scrape()))
                .start();
        return new PrometheusEndpoint(registry, server);
    }

    /**
     * Starts serving a new registry with the default Prometheus configuration.
     *
     * @param port TCP port on 127.0.0.1, 0 for any
     * @return the running endpoint; bind monitors to {@link #registry()}
     * @throws IOException if the port cannot be bound
     */
    public static PrometheusEndpoint start(int port) throws IOException {
        return start(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), port);
    }

    /** @return the registry served */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** @return the bound port */
    public int port() {
        return server.port();
    }

    /** @return the scrape URL, e.g. {@code http://127.0.0.1:9464/metrics} */
    public String url() {
        return server.baseUrl() + PATH;
    }

    /** Stops serving and releases the port. */
    @Override
    public void close() {
        server.close();
    }
}
