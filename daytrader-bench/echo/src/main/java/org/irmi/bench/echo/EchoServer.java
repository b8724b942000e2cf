package org.irmi.bench.echo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.irmi.bench.echo.internal.EchoServant;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * The echo server: exports one {@code irmibench::Echo} servant on the root POA of the chosen ORB
 * and publishes its IOR.
 *
 * <pre>
 * java org.irmi.bench.echo.EchoServer --orb jacorb|irmi|NAME=BASE,k=v,... --ior-file F
 *                                     [--host 127.0.0.1] [--port 0] [--prop key=value]... [--stats-file S]
 * </pre>
 *
 * It writes the IOR to F atomically (readers never see half a file), prints
 * {@code ECHO-SERVER ready variant=... pid=...} and serves until the process ends. With
 * {@code --stats-file} it also keeps the heap it holds after garbage collection in that file
 * ({@link org.irmi.bench.echo.internal.HeapStats}).
 *
 * <p>THREAD-SAFE: {@link #close()} may be called from any thread, once or more.
 */
public final class EchoServer implements AutoCloseable {

    private final OrbVariant variant;
    private final ORB orb;
    private final EchoServant servant;
    private final String ior;
    private volatile boolean closed;

    private EchoServer(OrbVariant variant, ORB orb, EchoServant servant, String ior) {
        this.variant = variant;
        this.orb = orb;
        this.servant = servant;
        this.ior = ior;
    }

    /**
     * Starts an echo server in this JVM.
     *
     * @param variant  the ORB to use
     * @param host     the address to listen on (loopback for tests and benchmarks)
     * @param port     the port, 0 for an ephemeral one
     * @param extra    more ORB properties, applied last
     */
    public static EchoServer start(OrbVariant variant, String host, int port, Map<String, String> extra) {
        Properties props = new Properties();
        props.putAll(variant.orbProperties());
        props.setProperty("OAIAddr", host);
        props.setProperty("OAPort", Integer.toString(port));
        props.putAll(extra);
        ORB orb = ORB.init(new String[0], props);
        try {
            POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            root.the_POAManager().activate();
            EchoServant servant = new EchoServant();
            String ior = orb.object_to_string(root.servant_to_reference(servant));
            return new EchoServer(variant, orb, servant, ior);
        } catch (Exception | LinkageError e) {
            orb.destroy();
            throw new IllegalStateException("cannot start the echo server on variant '" + variant.name()
                    + "' (" + variant.orbClass() + "): " + e, e);
        }
    }

    /** The stringified IOR of the echo object. */
    public String ior() {
        return ior;
    }

    /** The ORB this server runs on. */
    public ORB orb() {
        return orb;
    }

    /** The variant this server runs. */
    public OrbVariant variant() {
        return variant;
    }

    /** Calls served so far. */
    public long calls() {
        return servant.calls();
    }

    /** Blocks the calling thread while the ORB runs. */
    public void run() {
        orb.run();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            orb.shutdown(true);
        } finally {
            orb.destroy();
        }
    }

    /** Writes the IOR to {@code file} through a temporary file and an atomic move. */
    public static void writeIor(String ior, Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        Files.writeString(tmp, ior + "\n", StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Command-line entry point; see the class comment. Exit code 2 on bad arguments. */
    public static void main(String[] args) throws IOException {
        String orbName = null;
        Path iorFile = null;
        Path statsFile = null;
        String host = "127.0.0.1";
        int port = 0;
        Map<String, String> extra = new LinkedHashMap<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (a) {
                    case "--orb" -> orbName = require(a, value);
                    case "--ior-file" -> iorFile = Path.of(require(a, value));
                    case "--host" -> host = require(a, value);
                    case "--stats-file" -> statsFile = Path.of(require(a, value));
                    case "--port" -> port = Integer.parseInt(require(a, value));
                    case "--prop" -> {
                        String kv = require(a, value);
                        int eq = kv.indexOf('=');
                        if (eq <= 0) {
                            throw new IllegalArgumentException("--prop needs key=value, got '" + kv + "'");
                        }
                        extra.put(kv.substring(0, eq), kv.substring(eq + 1));
                    }
                    case "-h", "--help" -> {
                        usage(System.out);
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
                }
                i++;
            }
            if (orbName == null || iorFile == null) {
                throw new IllegalArgumentException("--orb and --ior-file are required");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("EchoServer: " + e.getMessage());
            usage(System.err);
            System.exit(2);
            return;
        }
        OrbVariant variant = resolve(orbName);
        EchoServer server = start(variant, host, port, extra);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "echo-server-shutdown"));
        if (statsFile != null) {
            org.irmi.bench.echo.internal.HeapStats.startWriter(statsFile);
        }
        writeIor(server.ior(), iorFile);
        System.out.println("ECHO-SERVER ready variant=" + variant.name() + " orb=" + variant.orbClass()
                + " pid=" + ProcessHandle.current().pid() + " ior-file=" + iorFile);
        System.out.flush();
        server.run();
    }

    private static OrbVariant resolve(String orbName) {
        Map<String, OrbVariant> known = OrbVariants.builtIns();
        OrbVariant variant = orbName.contains("=") ? OrbVariants.parse(orbName, known) : known.get(orbName);
        if (variant == null) {
            System.err.println("EchoServer: unknown --orb '" + orbName + "'; use one of "
                    + String.join(", ", known.keySet()) + " or NAME=BASE,key=value,...");
            System.exit(2);
        }
        return variant;
    }

    private static String require(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private static void usage(PrintStream out) {
        out.println("usage: EchoServer --orb jacorb|irmi|NAME=BASE,key=value,... --ior-file FILE"
                + " [--host 127.0.0.1] [--port 0] [--prop key=value]... [--stats-file FILE]");
    }
}
