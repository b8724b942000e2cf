package org.irmi.monitors;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A small, read-only HTTP/1.1 server for operators' endpoints (the Prometheus scrape, the
 * dashboard). It binds to the loopback address unless told otherwise, serves {@code GET} and
 * {@code HEAD} on the routes it was built with, and closes each connection after one answer.
 *
 * <p>What a client gets wrong is answered plainly:
 * <ul>
 * <li>a path no route serves: 404, the body listing the paths that exist;</li>
 * <li>another method: 405 with {@code Allow: GET, HEAD};</li>
 * <li>a request with a body over {@link Builder#maxBodyBytes} ({@code Content-Length}, or any chunked
 *     body): 413; bodies are never read (no route takes one);</li>
 * <li>a request line and headers over {@link Builder#maxRequestBytes}: 431;</li>
 * <li>a request that is not whole within {@link Builder#requestDeadlineMillis}: the connection is
 *     closed (a client that trickles bytes is cut off, not waited for);</li>
 * <li>a handler that throws: 500 naming the exception class, never a stack trace.</li>
 * </ul>
 * At most {@link Builder#workers} requests are served at once with as many more waiting; further
 * connections are closed at once. No client can hold a worker past the deadline, nor make the
 * server buffer more than the limit.
 *
 * <p>THREADING: one accept thread and a fixed pool of daemon workers of its own, named
 * {@code irmi-<name>-*}; handlers run on the workers. Nothing here runs on, or waits for, the ORB's
 * selector thread: handlers must read snapshots, never take the selector's locks. {@link #close()}
 * may be called from any thread, more than once.
 */
public final class LoopbackHttpServer implements AutoCloseable {

    /** Default: how long a client has to send its whole request (line and headers). */
    public static final int DEFAULT_REQUEST_DEADLINE_MILLIS = 5_000;
    /** Default: the most bytes a request's line and headers may take. */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 8 * 1024;
    /** Default: the largest request body accepted (none: every route is read-only). */
    public static final int DEFAULT_MAX_BODY_BYTES = 0;
    /** Default: requests served at once (and as many more queued). */
    public static final int DEFAULT_WORKERS = 2;

    /**
     * One request as a handler sees it.
     *
     * @param method  {@code GET} or {@code HEAD}
     * @param path    the decoded path, without the query
     * @param query   the query's parameters, decoded (the first value of each name)
     * @param headers header names in lower case
     */
    public record Request(String method, String path, Map<String, String> query, Map<String, String> headers) {
        /** @return the query parameter, or {@code fallback} when absent. */
        public String param(String name, String fallback) {
            return query.getOrDefault(name, fallback);
        }
    }

    /**
     * One answer.
     *
     * @param status      HTTP status
     * @param contentType the {@code Content-Type}
     * @param body        the body bytes
     * @param headers     extra headers (e.g. {@code Cache-Control})
     */
    public record Response(int status, String contentType, byte[] body, Map<String, String> headers) {
        public Response {
            Objects.requireNonNull(contentType, "contentType");
            Objects.requireNonNull(body, "body");
            headers = Map.copyOf(headers);
        }

        /** @return 200 with a UTF-8 body of the given type. */
        public static Response ok(String contentType, String body) {
            return new Response(200, contentType, body.getBytes(StandardCharsets.UTF_8), Map.of("Cache-Control", "no-store"));
        }

        /** @return a plain-text answer of {@code status} saying {@code message} (a newline is added). */
        public static Response text(int status, String message) {
            return new Response(status, "text/plain; charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8),
                    Map.of());
        }
    }

    /** Answers requests on one route. Runs on a worker thread; must not block for long. */
    @FunctionalInterface
    public interface Handler {
        /**
         * @return the answer; null means 404 (e.g. a file under a prefix route that does not exist)
         */
        Response handle(Request request) throws IOException;
    }

    private final String name;
    private final ServerSocket server;
    private final HttpRouter router;
    private final int deadlineMillis;
    private final int maxRequestBytes;
    private final Clock clock;
    private final ThreadPoolExecutor workers;
    private final Thread acceptor;
    private volatile boolean open = true;

    private LoopbackHttpServer(Builder b, ServerSocket server) {
        this.name = b.name;
        this.server = server;
        this.router = new HttpRouter(b.exact, b.prefixes, b.maxBodyBytes);
        this.deadlineMillis = b.requestDeadlineMillis;
        this.maxRequestBytes = b.maxRequestBytes;
        this.clock = b.clock;
        int port = server.getLocalPort();
        this.workers = new ThreadPoolExecutor(b.workers, b.workers, 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(b.workers), r -> {
                    Thread t = new Thread(r, "irmi-" + name + "-" + port);
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
        this.acceptor = new Thread(this::acceptLoop, "irmi-" + name + "-accept-" + port);
        this.acceptor.setDaemon(true);
    }

    /** @return a builder for a server named {@code name} (used in thread names and errors). */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return the bound port */
    public int port() {
        return server.getLocalPort();
    }

    /** @return e.g. {@code http://127.0.0.1:9464} (no trailing slash); IPv6 addresses in brackets */
    public String baseUrl() {
        InetAddress a = server.getInetAddress();
        String host = a.getHostAddress();
        if (a.isAnyLocalAddress()) {
            host = InetAddress.getLoopbackAddress().getHostAddress();
        }
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + port();
    }

    /** @return the paths served exactly, and the prefixes (ending in {@code /}), for 404 answers and docs */
    public List<String> paths() {
        return router.paths();
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
            client.setSoTimeout(deadlineMillis);
            long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMillis);
            String head = HttpRequestHeadReader.readHead(client.getInputStream(), maxRequestBytes, clock, deadline,
                    deadlineMillis);
            OutputStream out = client.getOutputStream();
            if (head == null) {
                HttpResponseWriter.write(out, Response.text(431, "request line and headers over " + maxRequestBytes + " bytes"),
                        false);
                return;
            }
            HttpResponseWriter.write(out, router.answer(head), head.startsWith("HEAD "));
        } catch (SocketTimeoutException slow) {
            // the client did not send its request in time: dropped
        } catch (IOException | RuntimeException e) {
            // the client went away, or sent garbage: nothing to answer
        }
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

    /** Builds a {@link LoopbackHttpServer}; every setter checks its bound and names it. */
    public static final class Builder {
        private final String name;
        private InetAddress bindAddress = InetAddress.getLoopbackAddress();
        private int port;
        private int requestDeadlineMillis = DEFAULT_REQUEST_DEADLINE_MILLIS;
        private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
        private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        private int workers = DEFAULT_WORKERS;
        private Clock clock = Clock.system();
        private final Map<String, Handler> exact = new LinkedHashMap<>();
        private final Map<String, Handler> prefixes = new LinkedHashMap<>();

        private Builder(String name) {
            if (name == null || !name.matches("[a-z][a-z0-9-]*")) {
                throw new IllegalArgumentException("name must be lower-case letters, digits and '-', was " + name);
            }
            this.name = name;
        }

        /** The address to bind; the loopback address unless set. */
        public Builder bindAddress(InetAddress address) {
            this.bindAddress = Objects.requireNonNull(address, "address");
            return this;
        }

        /** The TCP port; 0 (the default) picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** How long a client has to send its request line and headers, 100..60000 ms, on {@link #clock}. */
        public Builder requestDeadlineMillis(int millis) {
            if (millis < 100 || millis > 60_000) {
                throw new IllegalArgumentException("requestDeadlineMillis must be 100..60000, was " + millis);
            }
            this.requestDeadlineMillis = millis;
            return this;
        }

        /** The most bytes a request line and headers may take, 256..65536. */
        public Builder maxRequestBytes(int bytes) {
            if (bytes < 256 || bytes > 65_536) {
                throw new IllegalArgumentException("maxRequestBytes must be 256..65536, was " + bytes);
            }
            this.maxRequestBytes = bytes;
            return this;
        }

        /** The largest request body announced that is still answered (bodies are never read), 0..65536. */
        public Builder maxBodyBytes(int bytes) {
            if (bytes < 0 || bytes > 65_536) {
                throw new IllegalArgumentException("maxBodyBytes must be 0..65536, was " + bytes);
            }
            this.maxBodyBytes = bytes;
            return this;
        }

        /** Requests served at once (as many more may wait), 1..16. */
        public Builder workers(int workers) {
            if (workers < 1 || workers > 16) {
                throw new IllegalArgumentException("workers must be 1..16, was " + workers);
            }
            this.workers = workers;
            return this;
        }

        /**
         * The clock a request's deadline is measured on; {@link Clock#system()} unless set. A read
         * still gives up after {@link #requestDeadlineMillis} of real time without a byte.
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Serves {@code path} exactly (e.g. {@code /metrics}). */
        public Builder route(String path, Handler handler) {
            if (path == null || !path.startsWith("/")) {
                throw new IllegalArgumentException("a route's path must start with '/', was " + path);
            }
            exact.put(path, Objects.requireNonNull(handler, "handler"));
            return this;
        }

        /** Serves every path under {@code prefix} (which must start and end with '/'); paths with ".." never reach it. */
        public Builder prefix(String prefix, Handler handler) {
            if (prefix == null || !prefix.startsWith("/") || !prefix.endsWith("/") || prefix.length() < 2) {
                throw new IllegalArgumentException("a prefix must start and end with '/', was " + prefix);
            }
            prefixes.put(prefix, Objects.requireNonNull(handler, "handler"));
            return this;
        }

        /**
         * Binds and starts serving.
         *
         * @throws IOException if the address cannot be bound (the message names it and what to do)
         */
        public LoopbackHttpServer start() throws IOException {
            if (exact.isEmpty() && prefixes.isEmpty()) {
                throw new IllegalStateException("a server with no route serves nothing: add route(...)");
            }
            InetSocketAddress address = new InetSocketAddress(bindAddress, port);
            ServerSocket socket = new ServerSocket();
            try {
                socket.bind(address, 16);
            } catch (IOException e) {
                socket.close();
                throw new IOException("cannot bind the " + name + " endpoint to " + address + ": " + e.getMessage()
                        + " (choose another port, or 0 for any free one)", e);
            }
            LoopbackHttpServer s = new LoopbackHttpServer(this, socket);
            s.acceptor.start();
            return s;
        }
    }
}
