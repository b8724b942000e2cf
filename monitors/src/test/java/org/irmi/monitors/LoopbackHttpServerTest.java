package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class LoopbackHttpServerTest {

    private static LoopbackHttpServer.Builder server() {
        return LoopbackHttpServer.builder("test")
                .route("/hello", r -> LoopbackHttpServer.Response.ok("text/plain", "hello " + r.param("name", "you")))
                .route("/bad", r -> {
                    throw new IllegalArgumentException("name must be short");
                })
                .route("/broken", r -> {
                    throw new IOException("disk gone at /secret/path");
                })
                .prefix("/files/", r -> r.path().equals("/files/a.txt")
                        ? LoopbackHttpServer.Response.ok("text/plain", "a") : null);
    }

    /** Sends raw bytes and returns the whole answer (the server closes after one). */
    private static String send(LoopbackHttpServer s, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", s.port())) {
            socket.setSoTimeout(10_000);
            try {
                socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            } catch (IOException closedEarly) {
                // answered before everything was read
            }
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void shouldAnswerTheRouteWithItsDecodedQueryWhenThePathMatches() throws Exception {
        try (LoopbackHttpServer s = server().start()) {
            String reply = send(s, "GET /hello?name=I%20RMI HTTP/1.1\r\nHost: x\r\n\r\n");

            assertThat(reply).startsWith("HTTP/1.1 200 OK").contains("Connection: close").endsWith("hello I RMI");
            assertThat(s.baseUrl()).startsWith("http://127.0.0.1:");
        }
    }

    @Test
    void shouldSendHeadersOnlyWhenTheMethodIsHead() throws Exception {
        try (LoopbackHttpServer s = server().start()) {
            String reply = send(s, "HEAD /hello HTTP/1.1\r\n\r\n");

            assertThat(reply).startsWith("HTTP/1.1 200").contains("Content-Length: 9").endsWith("\r\n\r\n");
        }
    }

    @Test
    void shouldAnswer405WithAllowWhenTheMethodIsNotGetOrHead() throws Exception {
        try (LoopbackHttpServer s = server().start()) {
            String reply = send(s, "PUT /hello HTTP/1.1\r\nContent-Length: 0\r\n\r\n");

            assertThat(reply).startsWith("HTTP/1.1 405").contains("Allow: GET, HEAD", "method PUT not allowed on /hello");
        }
    }

    @Test
    void shouldAnswer413WithoutReadingTheBodyWhenOneIsAnnounced() throws Exception {
        try (LoopbackHttpServer s = server().start()) {
            String declared = send(s, "POST /hello HTTP/1.1\r\nContent-Length: 100000000\r\n\r\n");
            String chunked = send(s, "POST /hello HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");

            assertThat(declared).startsWith("HTTP/1.1 413");
            assertThat(chunked).startsWith("HTTP/1.1 413");
        }
    }

    @Test
    void shouldAnswer404ListingThePathsWhenNoRouteServesIt() throws Exception {
        try (LoopbackHttpServer s = server().start()) {
            String unknown = send(s, "GET /nothing HTTP/1.1\r\n\r\n");
            String missingFile = send(s, "GET /files/b.txt HTTP/1.1\r\n\r\n");
            String escape = send(s, "GET /files/../hello HTTP/1.1\r\n\r\n");

            assertThat(unknown).startsWith("HTTP/1.1 404").contains("/bad, /broken, /hello, /files/");
            assertThat(missingFile).startsWith("HTTP/1.1 404");
            assertThat(escape).startsWith("HTTP/1.1 404");
        }
    }

    @Test
    void shouldAnswer400WithTheMessageWhenTheHandlerRefusesItsInput() throws Exception {
        try (LoopbackHttpServer s = server().start()) {
            assertThat(send(s, "GET /bad HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 400").endsWith("name must be short\n");
            assertThat(send(s, "garbage\r\n\r\n")).startsWith("HTTP/1.1 400").contains("bad request line");
        }
    }

    @Test
    void shouldAnswer500NamingOnlyTheExceptionClassWhenTheHandlerFails() throws Exception {
        try (LoopbackHttpServer s = server().start()) {
            String reply = send(s, "GET /broken HTTP/1.1\r\n\r\n");

            assertThat(reply).startsWith("HTTP/1.1 500").contains("IOException").doesNotContain("/secret/path");
        }
    }

    @Test
    void shouldNameTheBoundWhenASettingIsOutOfRange() {
        assertThatThrownBy(() -> LoopbackHttpServer.builder("test").port(70_000))
                .hasMessage("port must be between 0 and 65535, was 70000");
        assertThatThrownBy(() -> LoopbackHttpServer.builder("test").workers(0)).hasMessage("workers must be 1..16, was 0");
        assertThatThrownBy(() -> LoopbackHttpServer.builder("Bad Name")).hasMessageContaining("lower-case");
        assertThatThrownBy(() -> LoopbackHttpServer.builder("test").start()).hasMessageContaining("no route");
    }

    @Test
    void shouldServeOnThreadsOfItsOwnWhenHandling() throws Exception {
        try (LoopbackHttpServer s = LoopbackHttpServer.builder("own")
                .route("/t", r -> LoopbackHttpServer.Response.ok("text/plain", Thread.currentThread().getName())).start()) {
            assertThat(send(s, "GET /t HTTP/1.1\r\n\r\n")).endsWith("irmi-own-" + s.port());
        }
    }
}
