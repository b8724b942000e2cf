package org.irmi.monitors;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.irmi.monitors.LoopbackHttpServer.Handler;
import org.irmi.monitors.LoopbackHttpServer.Request;
import org.irmi.monitors.LoopbackHttpServer.Response;

/**
 * The routes of a {@link LoopbackHttpServer} and the answer to one request head: it parses the
 * request line, the headers and the query, refuses a body over the limit (413), finds the handler
 * (an exact path first, then the first prefix, never for a path with {@code ..}), refuses a method
 * other than {@code GET} and {@code HEAD} (405), and turns a handler's exception into 400
 * ({@link IllegalArgumentException}) or 500 (naming only the exception class). A path no route
 * serves, or a handler's null, is 404 listing the paths that exist.
 *
 * <p>THREADING: immutable after construction; called from the server's workers at once.
 */
final class HttpRouter {
    private final Map<String, Handler> exact;
    private final Map<String, Handler> prefixes;
    private final int maxBodyBytes;

    /**
     * @param exact        handlers by exact path
     * @param prefixes     handlers by prefix (ending in {@code /}), tried in this order
     * @param maxBodyBytes the largest {@code Content-Length} still answered
     */
    HttpRouter(Map<String, Handler> exact, Map<String, Handler> prefixes, int maxBodyBytes) {
        this.exact = Map.copyOf(exact);
        this.prefixes = new LinkedHashMap<>(prefixes);
        this.maxBodyBytes = maxBodyBytes;
    }

    /** @return the paths served exactly (sorted), then the prefixes (ending in {@code /}) */
    List<String> paths() {
        List<String> all = new ArrayList<>(new TreeSet<>(exact.keySet()));
        all.addAll(prefixes.keySet());
        return all;
    }

    /** The answer to one request head (request line and headers, without the blank line). */
    Response answer(String head) {
        String[] lines = head.split("\r?\n");
        String[] requestLine = lines[0].trim().split(" ");
        if (requestLine.length != 3 || !requestLine[2].startsWith("HTTP/")) {
            return Response.text(400, "bad request line; send e.g. GET / HTTP/1.1");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.putIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        long bodyBytes;
        try {
            bodyBytes = Long.parseLong(headers.getOrDefault("content-length", "0"));
        } catch (NumberFormatException e) {
            return Response.text(400, "bad Content-Length");
        }
        if (bodyBytes > maxBodyBytes || headers.containsKey("transfer-encoding")) {
            return Response.text(413, "request body over " + maxBodyBytes + " bytes; these endpoints take none");
        }
        String method = requestLine[0];
        String target = requestLine[1];
        int q = target.indexOf('?');
        String rawPath = q < 0 ? target : target.substring(0, q);
        String path = URLDecoder.decode(rawPath, StandardCharsets.UTF_8);
        Handler handler = exact.get(path);
        if (handler == null) {
            for (Map.Entry<String, Handler> p : prefixes.entrySet()) {
                if (path.startsWith(p.getKey()) && !path.contains("..")) {
                    handler = p.getValue();
                    break;
                }
            }
        }
        if (handler == null) {
            return notFound(path);
        }
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            return new Response(405, "text/plain; charset=utf-8",
                    ("method " + method + " not allowed on " + path + "; use GET\n").getBytes(StandardCharsets.UTF_8),
                    Map.of("Allow", "GET, HEAD"));
        }
        Map<String, String> query = new LinkedHashMap<>();
        if (q >= 0) {
            for (String pair : target.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                query.putIfAbsent(k, v);
            }
        }
        try {
            Response r = handler.handle(new Request(method, path, Map.copyOf(query), Map.copyOf(headers)));
            return r == null ? notFound(path) : r;
        } catch (IllegalArgumentException bad) {
            return Response.text(400, bad.getMessage());
        } catch (IOException | RuntimeException e) {
            return Response.text(500, "internal error: " + e.getClass().getSimpleName());
        }
    }

    private Response notFound(String path) {
        String shown = path.length() > 200 ? path.substring(0, 200) + "..." : path;
        return Response.text(404, "not found: " + shown + "; this server has " + String.join(", ", paths()));
    }
}
