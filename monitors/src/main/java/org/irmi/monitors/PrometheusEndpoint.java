package org.irmi.monitors;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * An optional Prometheus scrape endpoint: {@code GET http://127.0.0.1:<port>/metrics} answers with the
 * registry's text exposition. It binds to the loopback address only (put a proxy in front to expose
 * it), serves one request at a time on its own daemon thread, and answers every other path with 404
 * and every other method with 405.
 *
 * <p>Metrics are computed at scrape time by the monitors' gauges; nothing runs between scrapes.
 *
 * <p>THREAD-SAFE: {@link #close()} may be called from any thread, more than once.
 */
public final class PrometheusEndpoint implements AutoCloseable {

    /** The scrape path. */
    public static final String PATH = "/metrics";

    private final PrometheusMeterRegistry registry;
    private final HttpServer server;
    private final ExecutorService executor;

    private PrometheusEndpoint(PrometheusMeterRegistry registry, HttpServer server, ExecutorService executor) {
        this.registry = registry;
        this.server = server;
        this.executor = executor;
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
        Objects.requireNonNull(registry, "registry");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
        }
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new IOException("cannot bind the Prometheus endpoint to " + address + ": " + e.getMessage()
                    + " (choose another port, or 0 for any free one)", e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "irmi-prometheus-" + server.getAddress().getPort());
            t.setDaemon(true);
            return t;
        });
        PrometheusEndpoint endpoint = new PrometheusEndpoint(registry, server, executor);
        server.createContext("/", endpoint::handle);
        server.setExecutor(executor);
        server.start();
        return endpoint;
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
        return server.getAddress().getPort();
    }

    /** @return the scrape URL, e.g. {@code http://127.0.0.1:9464/metrics} */
    public String url() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + port() + PATH;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!PATH.equals(exchange.getRequestURI().getPath())) {
                reply(exchange, 404, "text/plain; charset=utf-8", "not found; scrape " + PATH + "\n");
            } else if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().add("Allow", "GET, HEAD");
                reply(exchange, 405, "text/plain; charset=utf-8", "method not allowed; use GET\n");
            } else {
                reply(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
            }
        }
    }

    private static void reply(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Stops serving (waits for no exchange) and releases the port. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
