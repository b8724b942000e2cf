package org.irmi.bench.echo.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The C++ programs: omniORB's (interop client, closed-loop load client, the echo server of the
 * {@code omniorb} variant and, on demand, the TLS client) and the epoll load client, which needs no ORB;
 * compiled from the sources
 * that travel with the classes ({@code native/*.cc}, {@code native/echo.idl}) with Debian's
 * omniidl, g++ and {@code pkg-config omniORB4}. Built once into {@code <module>/target/native}
 * and rebuilt only when a source or the omniORB version changes.
 *
 * <p>THREAD-SAFE: concurrent builds (also from other processes) are serialised by a file lock.
 */
public final class NativeClients {

    /** What to install when the tool chain is missing. */
    public static final String INSTALL_HINT =
            "install them with: sudo apt-get install -y libomniorb4-dev libssl-dev omniidl g++ pkg-config"
                    + " (or run scripts/prereqs.sh)";

    private static final List<String> SOURCES = List.of("echo.idl", "echo_load_client.cc", "echo_interop_client.cc",
            "echo_server.cc", "echo_epoll_client.cc");
    private static final String TLS_CLIENT = "echo_tls_client";
    private static final List<String> CXX_FLAGS = List.of("-O2", "-std=c++17", "-pthread");

    private final Path loadClient;
    private final Path interopClient;
    private final Path server;
    private final Path epollClient;

    private NativeClients(Path dir) {
        this.loadClient = dir.resolve("echo_load_client");
        this.interopClient = dir.resolve("echo_interop_client");
        this.server = dir.resolve("echo_server");
        this.epollClient = dir.resolve("echo_epoll_client");
    }

    /** The closed-loop load client that holds every connection on one epoll thread ({@code echo_epoll_client.cc}). */
    public Path epollClient() {
        return epollClient;
    }

    /** The closed-loop load client. */
    public Path loadClient() {
        return loadClient;
    }

    /** The interop client. */
    public Path interopClient() {
        return interopClient;
    }

    /** The omniORB echo server ({@code echo_server.cc}). */
    public Path server() {
        return server;
    }

    /**
     * The TLS client ({@code echo_tls_client.cc}), built on first call next to the other programs and
     * linked with omniORB's SSL transport ({@code libomnisslTP4}). It is kept out of {@link #build}
     * so the benchmark does not need the SSL transport.
     *
     * @throws IllegalStateException when the SSL transport is missing or the compiler fails, with its output
     */
    public Path tlsClient() {
        tlsUnavailableReason().ifPresent(reason -> {
            throw new IllegalStateException(reason);
        });
        Path dir = interopClient.getParent();
        Path program = dir.resolve(TLS_CLIENT);
        try (FileChannel lockFile = FileChannel.open(dir.resolve(".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = lockFile.lock()) {
            byte[] source = resource(TLS_CLIENT + ".cc");
            MessageDigest digest = sha256();
            digest.update(source);
            digest.update(Files.readAllBytes(dir.resolve("build.sha256")));
            String hash = HexFormat.of().formatHex(digest.digest());
            Path stamp = dir.resolve(TLS_CLIENT + ".sha256");
            if (Files.exists(stamp) && Files.readString(stamp).trim().equals(hash) && Files.isExecutable(program)) {
                return program;
            }
            Files.deleteIfExists(stamp);
            Path src = dir.resolve("src");
            Files.write(src.resolve(TLS_CLIENT + ".cc"), source);
            List<String> omni = new ArrayList<>(List.of(run(List.of("pkg-config", "--cflags", "--libs", "omniORB4"),
                    dir, 30).trim().split("\\s+")));
            omni.add("-lomnisslTP4");
            link(dir, dir.resolve("gen"), src, TLS_CLIENT, omni);
            Files.writeString(stamp, hash + "\n");
            return program;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build " + TLS_CLIENT + " in " + dir, e);
        }
    }

    /** Why the TLS client cannot be built here (beyond {@link #unavailableReason}), or empty. */
    public static Optional<String> tlsUnavailableReason() {
        List<String> missing = new ArrayList<>();
        if (!Files.exists(Path.of("/usr/include/omniORB4/sslContext.h"))) {
            missing.add("omniORB SSL header (/usr/include/omniORB4/sslContext.h, libomniorb4-dev)");
        }
        if (!Files.exists(Path.of("/usr/include/openssl/ssl.h"))) {
            missing.add("OpenSSL headers (/usr/include/openssl/ssl.h, libssl-dev)");
        }
        if (!Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libomnisslTP4.so"))
                && !Files.exists(Path.of("/usr/lib/libomnisslTP4.so"))) {
            missing.add("omniORB SSL transport (libomnisslTP4.so, libomniorb4-dev)");
        }
        return missing.isEmpty() ? unavailableReason()
                : Optional.of("omniORB SSL tool chain missing: " + String.join(", ", missing) + "; " + INSTALL_HINT);
    }

    /** Why the clients cannot be built here, or empty when the tool chain is present. */
    public static Optional<String> unavailableReason() {
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("omniidl", "g++", "pkg-config")) {
            if (!onPath(tool)) {
                missing.add(tool);
            }
        }
        if (!Files.exists(Path.of("/usr/include/omniORB4/CORBA.h"))) {
            missing.add("omniORB headers (/usr/include/omniORB4/CORBA.h)");
        }
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("omniORB C++ tool chain missing: " + String.join(", ", missing) + "; " + INSTALL_HINT);
    }

    /** Builds (or reuses) the clients in the default directory. */
    public static NativeClients build() {
        return build(defaultDir());
    }

    /**
     * Builds (or reuses) the clients in {@code dir}.
     *
     * @throws IllegalStateException when the tool chain is missing or a compiler fails, with its output
     */
    public static NativeClients build(Path dir) {
        unavailableReason().ifPresent(reason -> {
            throw new IllegalStateException(reason);
        });
        try {
            Files.createDirectories(dir);
            try (FileChannel lockFile = FileChannel.open(dir.resolve(".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = lockFile.lock()) {
                return buildLocked(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the omniORB clients in " + dir, e);
        }
    }

    private static NativeClients buildLocked(Path dir) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src"));
        MessageDigest digest = sha256();
        for (String name : SOURCES) {
            byte[] content = resource(name);
            Files.write(src.resolve(name), content);
            digest.update(name.getBytes(StandardCharsets.UTF_8));
            digest.update(content);
        }
        String omniVersion = run(List.of("pkg-config", "--modversion", "omniORB4"), dir, 30).trim();
        digest.update((omniVersion + CXX_FLAGS).getBytes(StandardCharsets.UTF_8));
        String hash = HexFormat.of().formatHex(digest.digest());
        Path stamp = dir.resolve("build.sha256");
        NativeClients clients = new NativeClients(dir);
        if (Files.exists(stamp) && Files.readString(stamp).trim().equals(hash)
                && Files.isExecutable(clients.loadClient) && Files.isExecutable(clients.interopClient)
                && Files.isExecutable(clients.server) && Files.isExecutable(clients.epollClient)) {
            return clients;
        }
        Files.deleteIfExists(stamp);
        Path gen = Files.createDirectories(dir.resolve("gen"));
        run(List.of("omniidl", "-bcxx", src.resolve("echo.idl").toString()), gen, 60);
        List<String> omni = List.of(run(List.of("pkg-config", "--cflags", "--libs", "omniORB4"), dir, 30)
                .trim().split("\\s+"));
        List<String> cflags = List.of(run(List.of("pkg-config", "--cflags", "omniORB4"), dir, 30).trim().split("\\s+"));
        List<String> skel = new ArrayList<>(List.of("g++"));
        skel.addAll(CXX_FLAGS);
        skel.addAll(List.of("-I" + gen, "-c", gen.resolve("echoSK.cc").toString(), "-o", "echoSK.o"));
        skel.addAll(cflags.stream().filter(s -> !s.isBlank()).toList());
        run(skel, dir, 300);
        // Two programs compile at a time: the machine has two cores.
        CompletableFuture<String> load = CompletableFuture.supplyAsync(() -> link(dir, gen, src, "echo_load_client", omni));
        link(dir, gen, src, "echo_interop_client", omni);
        link(dir, gen, src, "echo_server", omni);
        load.join();
        List<String> epoll = new ArrayList<>(List.of("g++"));
        epoll.addAll(CXX_FLAGS);
        epoll.addAll(List.of("-Wall", src.resolve("echo_epoll_client.cc").toString(), "-o", "echo_epoll_client"));
        run(epoll, dir, 300);
        Files.writeString(stamp, hash + "\n");
        return clients;
    }

    private static String link(Path dir, Path gen, Path src, String program, List<String> omni) {
        List<String> cmd = new ArrayList<>(List.of("g++"));
        cmd.addAll(CXX_FLAGS);
        cmd.addAll(List.of("-I" + gen, src.resolve(program + ".cc").toString(), "echoSK.o", "-o", program));
        cmd.addAll(omni.stream().filter(s -> !s.isBlank()).toList());
        return run(cmd, dir, 300);
    }

    private static String run(List<String> cmd, Path dir, int timeoutSeconds) {
        Processes.Result r = Processes.run(cmd, dir, Duration.ofSeconds(timeoutSeconds));
        if (r.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed (exit " + r.exitCode() + "):\n" + r.output());
        }
        return r.output();
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = NativeClients.class.getResourceAsStream("/native/" + name)) {
            if (in == null) {
                throw new IOException("native/" + name + " is missing from the class path; rebuild echo-bench");
            }
            return in.readAllBytes();
        }
    }

    /** {@code <module>/target/native} when running from target/classes, else a directory under tmp. */
    public static Path defaultDir() {
        try {
            Path classes = Path.of(NativeClients.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(classes) && classes.getParent() != null) {
                return classes.getParent().resolve("native");
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through to tmp
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "irmi-echo-native-" + System.getProperty("user.name"));
    }

    private static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String d : path.split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
