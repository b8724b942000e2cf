package org.irmi.bench.experiments.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;

/**
 * Makes each I-RMI child of an experiment serve the dashboard of its isolation points and prints
 * its URL, so that an operator can watch a run (a poison episode being caught) while it runs.
 * On by default; {@code -Dirmi.experiments.dashboard=off} (or {@code IRMI_EXPERIMENTS_DASHBOARD=off})
 * turns it off.
 *
 * <p>The port is chosen here (a free loopback port, released at once) rather than by the child,
 * so the URL is known, and printed, before the child has started; it answers once the child's ORB
 * is up. The dashboard runs on its own threads, never on the ORB's selector thread, and costs the
 * child nothing while nobody looks.
 */
public final class DashboardOption {

    private DashboardOption() {
    }

    /**
     * @param sla the child's SLA file (named in the printed line)
     * @return the child's JVM options for a dashboard, after printing its URL to stderr; empty when off
     */
    public static List<String> jvmOptions(Path sla) {
        String setting = System.getProperty("irmi.experiments.dashboard", System.getenv("IRMI_EXPERIMENTS_DASHBOARD"));
        if ("off".equalsIgnoreCase(setting) || "false".equalsIgnoreCase(setting)) {
            return List.of();
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        } catch (IOException e) {
            return List.of(); // no free port: the run goes on without a dashboard
        }
        System.err.printf("  I-RMI dashboard (%s): http://127.0.0.1:%d/%n", sla.getFileName(), port);
        return List.of("-Dirmi.dashboard.port=" + port);
    }
}
