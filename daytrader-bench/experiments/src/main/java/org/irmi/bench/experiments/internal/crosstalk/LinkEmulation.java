package org.irmi.bench.experiments.internal.crosstalk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The crosstalk experiment's network: the clients in a network namespace of their own, joined to
 * the server's by a veth pair whose client side sends through a rate-limited first-in first-out
 * queue (HTB at {@code rate}, a byte FIFO of {@code queueBytes}). That is the paper's topology:
 * each client on a machine of its own, all of them reaching the server's one network port through
 * a switch, whose output port is a FIFO at the link's rate.
 *
 * <p>Why: on loopback a 1 MB request arrives in well under a millisecond, the clients share the
 * server's machine, and what the secondary streams take from the large one is CPU time on a
 * scheduler's whim (plain JacORB's harm moved between 1.2x and 2.6x from one run to the next). On
 * a link, the streams share its bandwidth, and the server decides by what it reads (TCP's flow
 * control holds a sender whose data is not read) how much of the link each stream gets.
 *
 * <p>Needs {@code CAP_NET_ADMIN} (root) and the {@code ip} and {@code tc} commands (iproute2).
 * {@link #open} throws an {@link IOException} that says which command failed and why.
 *
 * <p>THREADING: one owner; {@link #close} is idempotent and may also run from a shutdown hook.
 */
public final class LinkEmulation implements AutoCloseable {

    /** How long one {@code ip} or {@code tc} command may take, output included. */
    private static final long COMMAND_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Links opened by this JVM, for unique names. */
    private static final java.util.concurrent.atomic.AtomicInteger OPENED = new java.util.concurrent.atomic.AtomicInteger();

    private final String namespace;
    private final String hostInterface;
    private final String serverAddress;
    private final String rate;
    private final int queueBytes;
    private boolean closed;

    private LinkEmulation(String namespace, String hostInterface, String serverAddress, String rate, int queueBytes) {
        this.namespace = namespace;
        this.hostInterface = hostInterface;
        this.serverAddress = serverAddress;
        this.rate = rate;
        this.queueBytes = queueBytes;
    }

    /**
     * Creates the namespace, the veth pair and the queue.
     *
     * @param rate the link rate as {@code tc} reads it, e.g. {@code 100mbit}
     * @param queueBytes the switch port's buffer in bytes
     */
    public static LinkEmulation open(String rate, int queueBytes) throws IOException {
        millisPerMib(rate); // an unreadable rate fails here, before anything is created
        long pid = ProcessHandle.current().pid();
        int n = OPENED.incrementAndGet() % 100;
        String namespace = "irmi-xt-" + pid + "-" + n;
        String host = "ixh" + pid + "." + n;    // interface names: at most 15 characters (pid <= 7 digits)
        String peer = "ixc" + pid + "." + n;
        removeStale();
        String net = freeSubnet(pid + n);
        LinkEmulation link = new LinkEmulation(namespace, host, net + "1", rate, queueBytes);
        try {
            run("ip", "netns", "add", namespace);
            run("ip", "link", "add", host, "type", "veth", "peer", "name", peer);
            run("ip", "link", "set", peer, "netns", namespace);
            run("ip", "addr", "add", net + "1/24", "dev", host);
            run("ip", "link", "set", host, "up");
            run("ip", "netns", "exec", namespace, "ip", "addr", "add", net + "2/24", "dev", peer);
            run("ip", "netns", "exec", namespace, "ip", "link", "set", peer, "up");
            run("ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "up");
            // The clients' side sends through the link: HTB at the rate, a byte FIFO behind it.
            run("ip", "netns", "exec", namespace, "tc", "qdisc", "add", "dev", peer, "root", "handle", "1:", "htb",
                    "default", "10", "r2q", "1000");
            run("ip", "netns", "exec", namespace, "tc", "class", "add", "dev", peer, "parent", "1:", "classid", "1:10",
                    "htb", "rate", rate, "ceil", rate);
            run("ip", "netns", "exec", namespace, "tc", "qdisc", "add", "dev", peer, "parent", "1:10", "handle", "20:",
                    "bfifo", "limit", String.valueOf(queueBytes));
        } catch (IOException e) {
            link.close();
            throw e;
        }
        // A run ended by a signal still removes its namespace (close is idempotent).
        Runtime.getRuntime().addShutdownHook(new Thread(link::close, "irmi-link-cleanup"));
        return link;
    }

    /** @return the server's address on the link (give it to the server as {@code OAIAddr}) */
    public String serverAddress() {
        return serverAddress;
    }

    /** @return milliseconds the link takes to carry one MiB at its rate (rates as {@code 100mbit}, {@code 1gbit}) */
    public double millisPerMib() {
        return millisPerMib(rate);
    }

    private static double millisPerMib(String rate) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([kmg]?)bit").matcher(rate);
        if (!m.matches()) {
            throw new IllegalArgumentException("link rate '" + rate + "': expected a whole number and kbit, mbit or gbit"
                    + " (e.g. 100mbit)");
        }
        double bits = Double.parseDouble(m.group(1)) * switch (m.group(2)) {
            case "k" -> 1e3;
            case "m" -> 1e6;
            case "g" -> 1e9;
            default -> 1;
        };
        return 8.0 * (1 << 20) / bits * 1000;
    }

    /** @return the veth end in the server's namespace */
    String hostInterface() {
        return hostInterface;
    }

    /** @return what goes before a client's command so it runs behind the link */
    public List<String> clientPrefix() {
        return List.of("ip", "netns", "exec", namespace);
    }

    /** @return one line for the report */
    public String describe() {
        return "clients in network namespace " + namespace + ", reaching the server (" + serverAddress
                + ") over a veth link limited to " + rate + " (HTB) with a " + (queueBytes >> 10) + " KiB FIFO";
    }

    /** @return the queue's counters ({@code tc -s qdisc}), for the log */
    public String statistics() {
        try {
            return run("ip", "netns", "exec", namespace, "tc", "-s", "qdisc", "show");
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** Deletes the namespace, which deletes the veth pair and its queue. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            // Deleting the link is synchronous and removes both ends; deleting only the namespace
            // leaves the kernel to remove the pair later.
            run("ip", "link", "del", hostInterface);
        } catch (IOException ignored) {
            // not created, or already gone
        }
        try {
            run("ip", "netns", "del", namespace);
        } catch (IOException ignored) {
            // not created, or already gone
        }
    }

    /**
     * A /24 of 198.18.0.0/15 (RFC 2544's range for benchmarks, never routed) that no interface of
     * this machine uses, starting from {@code seed}.
     *
     * @return its first three octets and a dot, e.g. {@code 198.18.7.}
     */
    private static String freeSubnet(long seed) throws IOException {
        String used = run("ip", "-4", "addr", "show");
        for (int i = 0; i < 512; i++) {
            int k = (int) ((seed + i) % 512);
            String net = "198." + (18 + k / 256) + "." + (k % 256) + ".";
            if (!used.contains(" " + net)) {
                return net;
            }
        }
        throw new IOException("no free /24 in 198.18.0.0/15 for the crosstalk link");
    }

    /**
     * Deletes the namespaces of earlier runs whose process is gone (a run killed before its
     * {@link #close}): their veth pairs would otherwise stay, and one of them could hold this run's
     * subnet.
     */
    private static void removeStale() throws IOException {
        for (String line : run("ip", "netns", "list").lines().toList()) {
            String name = line.split(" ")[0];
            if (!name.startsWith("irmi-xt-")) {
                continue;
            }
            try {
                long pid = Long.parseLong(name.substring("irmi-xt-".length()).split("-")[0]);
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    continue; // another run's, still going
                }
            } catch (NumberFormatException notOurs) {
                continue;
            }
            run("ip", "netns", "del", name);
        }
    }

    /**
     * Runs a command and returns its output (standard output and error, trimmed). A reader thread
     * drains the output while this thread waits, so a command that writes more than a pipe holds
     * cannot stall, and the {@link #COMMAND_TIMEOUT_NANOS} budget covers both the exit and the output.
     */
    private static String run(String... command) throws IOException {
        long deadlineNanos = System.nanoTime() + COMMAND_TIMEOUT_NANOS;
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        FutureTask<byte[]> output = new FutureTask<>(() -> p.getInputStream().readAllBytes());
        Thread reader = new Thread(output, "irmi-link-output");
        reader.setDaemon(true);
        reader.start();
        try {
            String text = new String(output.get(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS),
                    StandardCharsets.UTF_8).trim();
            if (!p.waitFor(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                throw new TimeoutException();
            }
            if (p.exitValue() != 0) {
                throw new IOException("'" + String.join(" ", command) + "' exited with " + p.exitValue() + ": " + text
                        + " (the crosstalk link emulation needs root, i.e. CAP_NET_ADMIN, and iproute2)");
            }
            return text;
        } catch (TimeoutException e) {
            p.destroyForcibly();
            throw new IOException("'" + String.join(" ", command) + "' did not finish in "
                    + TimeUnit.NANOSECONDS.toSeconds(COMMAND_TIMEOUT_NANOS) + " s");
        } catch (ExecutionException e) {
            p.destroyForcibly();
            throw new IOException("reading the output of '" + String.join(" ", command) + "'", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
    }
}
