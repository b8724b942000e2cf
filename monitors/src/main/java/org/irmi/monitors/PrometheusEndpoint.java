package org.irmi.monitors;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ArrayBlockingQueue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * An optional Prometheus scrape endpoint: {@code GET http://127.0.0.1:<port>/metrics} answers with the
 * registry's text exposition. It binds to the loopback address only (put a proxy in front to expose
 * it), answers every other path with 404 and every other method with 405, and closes each
 * connection after one answer.
 *
 * <p>Hostile clients: a request must arrive whole within {@link #REQUEST_DEADLINE_MILLIS} (a client
 * that trickles bytes is cut off, not waited for), its request line and headers may take at most
 * {@link #MAX_REQUEST_BYTES} (431 beyond), and at most {@link #WORKERS} requests are served at once
 * with {@link #WORKERS} more waiting; further connections are closed at once. So no client can hold
 * a worker for longer than the deadline, nor make the endpoint buffer more than the limit. A local
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
    public static final int REQUEST_DEADLINE_MILLIS = 5_000;
    /** The most bytes a request's line and headers may take. */
    public static final int MAX_REQUEST_BYTES = 8 * 1024;
    /** Requests served at once (and as many more queued). */
    public static final int WORKERS = 2;

    private final PrometheusMeterRegistry registry;
    private final ServerSocket server;
    private final ThreadPoolExecutor workers;
    private final Thread acceptor;
    private volatile boolean open = true;

    private PrometheusEndpoint(PrometheusMeterRegistry registry, ServerSocket server) {
        this.registry = registry;
        this.server = server;
        int port = server.getLocalPort();
        this.workers = new ThreadPoolExecutor(WORKERS, WORKERS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(WORKERS), r -> {
            Thread t = new Thread(r, "irmi-prometheus-" + port);
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
        this.acceptor = new Thread(this::acceptLoop, "irmi-prometheus-accept-" + port);
        this.acceptor.setDaemon(true);
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
        ServerSocket server = new ServerSocket();
        try {
            server.bind(address, 16);
        } catch (IOException e) {
            server.close();
            throw new IOException("cannot bind the Prometheus endpoint to " + address + ": " + e.getMessage()
                    + " (choose another port, or 0 for any free one)", e);
        }
        PrometheusEndpoint endpoint = new PrometheusEndpoint(registry, server);
        endpoint.acceptor.start();
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
        return server.getLocalPort();
    }

    /** @return the scrape URL, e.g. {@code http://127.0.0.1:9464/metrics} */
    public String url() {
        return "http://" + server.getInetAddress().getHostAddress() + ":" + port() + PATH;
    }

    private void acceptLoop() {
        while (open) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!open) {
                    return;
                }
                try {
                    Thread.sleep(100); // out of file descriptors, usually: do not spin
                } catch (InterruptedException interrupted) {
                    return;
                }
                continue;
            }
            try {
                workers.execute(() -> serve(client));
            } catch (RejectedExecutionException busy) {
                closeQuietly(client); // every worker busy and the queue full: no client waits on us
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            client.setSoTimeout(REQUEST_DEADLINE_MILLIS);
            String[] requestLine = readRequest(client.getInputStream(), System.nanoTime()
                    + TimeUnit.MILLISECONDS.toNanos(REQUEST_DEADLINE_MILLIS));
            OutputStream out = client.getOutputStream();
            if (requestLine == null) {
                reply(out, 431, "Request Header Fields Too Large", "text/plain; charset=utf-8",
                        "request line and headers over " + MAX_REQUEST_BYTES + " bytes\n", false);
                return;
            }
            if (requestLine.length != 3) {
                reply(out, 400, "Bad Request", "text/plain; charset=utf-8", "bad request line\n", false);
                return;
            }
            String method = requestLine[0];
            String path = requestLine[1];
            int query = path.indexOf('?');
            if (query >= 0) {
                path = path.substring(0, query);
            }
            boolean head = "HEAD".equals(method);
            if (!PATH.equals(path)) {
                reply(out, 404, "Not Found", "text/plain; charset=utf-8", "not found; scrape " + PATH + "\n", head);
            } else if (!"GET".equals(method) && !head) {
                reply(out, 405, "Method Not Allowed", "text/plain; charset=utf-8\r\nAllow: GET, HEAD",
                        "method not allowed; use GET\n", false);
            } else {
                reply(out, 200, "OK", "text/plain; version=0.0.4; charset=utf-8", registry.scrape(), head);
            }
        } catch (SocketTimeoutException slow) {
            // the client did not send its request in time: dropped
        } catch (IOException | RuntimeException e) {
            // the client went away, or sent garbage: nothing to answer
        }
    }

    /**
     * Reads the request line and headers up to the empty line, within {@code deadlineNanos} and
     * {@link #MAX_REQUEST_BYTES}. Returns the request line split in three (method, target,
     * version), or null when the limit was reached.
     */
    private static String[] readRequest(InputStream in, long deadlineNanos) throws IOException {
        byte[] buf = new byte[MAX_REQUEST_BYTES];
        int n = 0;
        while (true) {
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new SocketTimeoutException("request not complete within " + REQUEST_DEADLINE_MILLIS + " ms");
            }
            if (n == buf.length) {
                return null;
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                throw new IOException("closed before the request ended");
            }
            n += r;
            int end = headerEnd(buf, n);
            if (end >= 0) {
                String text = new String(buf, 0, end, StandardCharsets.ISO_8859_1);
                int eol = text.indexOf('\n');
                String line = (eol < 0 ? text : text.substring(0, eol)).trim();
                return line.split(" ");
            }
        }
    }

    /** The index of the blank line ending the headers ({@code \r\n\r\n} or {@code \n\n}), or -1. */
    private static int headerEnd(byte[] b, int n) {
        for (int i = 0; i + 1 < n; i++) {
            if (b[i] == '\n' && (b[i + 1] == '\n' || (b[i + 1] == '\r' && i + 2 < n && b[i + 2] == '\n'))) {
                return i;
            }
        }
        return -1;
    }

    private static void reply(OutputStream out, int status, String reason, String contentType, String body, boolean head)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String headers = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: " + contentType + "\r\nContent-Length: "
                + bytes.length + "\r\nConnection: close\r\n\r\n";
        out.write(headers.getBytes(StandardCharsets.ISO_8859_1));
        if (!head) {
            out.write(bytes);
        }
        out.flush();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Stops serving and releases the port. */
    @Override
    public void close() {
        open = false;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        workers.shutdownNow();
    }
}
