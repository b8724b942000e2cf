package org.irmi.bench.experiments.internal.crosstalk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The crosstalk experiment's link, really set up (root and iproute2, as the experiment needs):
 * a client in the namespace reaches the server's address, at the link's rate and not loopback's,
 * and the namespace is gone after close.
 */
class LinkEmulationTest {

    @Test
    void shouldCarryAClientsBytesAtTheLinksRateAndRemoveTheNamespaceWhenClosed() throws Exception {
        int bytes = 4 << 20;
        String namespace;
        String hostInterface;
        long nanos;
        try (LinkEmulation link = LinkEmulation.open("100mbit", 256 << 10);
             ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName(link.serverAddress()))) {
            namespace = link.clientPrefix().get(link.clientPrefix().size() - 1);
            hostInterface = link.hostInterface();
            assertThat(netnsList()).contains(namespace);
            assertThat(run("ip", "link", "show", hostInterface)).isZero();
            List<String> command = new ArrayList<>(link.clientPrefix());
            command.addAll(List.of("bash", "-c", "head -c " + bytes + " /dev/zero > /dev/tcp/" + link.serverAddress()
                    + "/" + server.getLocalPort()));
            Process sender = new ProcessBuilder(command).redirectErrorStream(true).start();
            server.setSoTimeout(10_000);
            try (Socket s = server.accept(); InputStream in = s.getInputStream()) {
                byte[] buffer = new byte[64 << 10];
                long total = 0;
                long start = 0;
                for (int n; (n = in.read(buffer)) > 0; ) {
                    if (total == 0) {
                        start = System.nanoTime();
                    }
                    total += n;
                }
                nanos = System.nanoTime() - start;
                assertThat(total).isEqualTo(bytes);
            }
            assertThat(sender.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(sender.exitValue()).as(new String(sender.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isZero();
            // 4 MiB at 100 Mbit/s: 336 ms on the wire (loopback: a few ms). Allow the queue's first burst.
            assertThat(nanos / 1e6).as("ms to receive 4 MiB").isGreaterThan(0.8 * link.millisPerMib() * 4)
                    .isLessThan(10 * link.millisPerMib() * 4);
        }
        assertThat(netnsList()).doesNotContain(namespace);
        assertThat(run("ip", "link", "show", hostInterface)).as("the veth pair is gone").isNotZero();
    }

    @Test
    void shouldReadTheLinkRateInMillisecondsPerMib() throws Exception {
        try (LinkEmulation link = LinkEmulation.open("100mbit", 64 << 10)) {
            assertThat(link.millisPerMib()).isCloseTo(83.886, org.assertj.core.data.Offset.offset(0.01));
            assertThat(link.describe()).contains("100mbit").contains("64 KiB");
        }
        assertThatThrownBy(() -> LinkEmulation.open("fast", 64 << 10)).hasMessageContaining("'fast'");
        assertThatThrownBy(() -> LinkEmulation.open("100Mbit", 64 << 10)).as("tc would take it; the timeouts would not")
                .hasMessageContaining("100Mbit");
    }

    /** @return the namespaces' names, one per element (exact names, not substrings of a listing) */
    private static List<String> netnsList() throws Exception {
        Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(5, TimeUnit.SECONDS);
        return out.lines().map(l -> l.split(" ")[0]).toList();
    }

    private static int run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(5, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }
}
