package org.irmi.orb.isolation;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.UnaryOperator;

import org.irmi.orb.IrmiORB;
import org.irmi.orb.OrbExtension;
import org.omg.CORBA.INITIALIZE;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plugs the isolation points into every I-RMI ORB ({@code META-INF/services/org.irmi.orb.OrbExtension}):
 * when {@value OrbIsolation#SLA_PROPERTY} names an SLA file it starts the ORB's {@link OrbIsolation},
 * with the Prometheus endpoint of {@value OrbIsolation#METRICS_PORT_PROPERTY} and the dashboard of
 * {@value Dashboard#PORT_PROPERTY} / {@value Dashboard#ADDRESS_PROPERTY} when those are set.
 * Without an SLA it starts nothing, and warns about a metrics or dashboard port set in vain.
 * Not for applications: the ORB starts it; {@link OrbIsolation#of} finds what it started.
 */
public final class IsolationExtension implements OrbExtension {

    private static final Logger LOG = LoggerFactory.getLogger(IsolationExtension.class);

    /** Created by {@link java.util.ServiceLoader}. */
    public IsolationExtension() {
    }

    /**
     * @throws INITIALIZE "I-RMI cannot use the SLA &lt;file&gt;: ..." when the SLA is invalid, a port
     *         or address setting is malformed, or a port cannot be bound
     */
    @Override
    public Optional<Running> start(IrmiORB orb, UnaryOperator<String> settings) {
        String sla = settings.apply(OrbIsolation.SLA_PROPERTY);
        if (sla == null || sla.isBlank()) {
            warnUnused(settings);
            return Optional.empty();
        }
        try {
            OptionalInt metricsPort = OptionalInt.empty();
            String port = settings.apply(OrbIsolation.METRICS_PORT_PROPERTY);
            if (port != null && !port.isBlank()) {
                try {
                    metricsPort = OptionalInt.of(Integer.parseInt(port.trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(OrbIsolation.METRICS_PORT_PROPERTY
                            + " must be a port number, got \"" + port + "\"");
                }
            }
            OptionalInt dashboardPort = portOf(settings, Dashboard.PORT_PROPERTY);
            InetAddress dashboardAddress = addressOf(settings, Dashboard.ADDRESS_PROPERTY);
            return Optional.of(OrbIsolation.start(orb, Path.of(sla), metricsPort, dashboardPort, dashboardAddress));
        } catch (RuntimeException e) {
            INITIALIZE init = new INITIALIZE("I-RMI cannot use the SLA " + sla + ": " + e.getMessage());
            init.initCause(e);
            throw init;
        }
    }

    /** Warns about a metrics or dashboard port set without an SLA: neither starts then. */
    private static void warnUnused(UnaryOperator<String> settings) {
        String port = settings.apply(OrbIsolation.METRICS_PORT_PROPERTY);
        if (port != null && !port.isBlank()) {
            LOG.warn("{} is set but {} is not: the metrics endpoint serves the isolation points' meters,"
                    + " so none is started", OrbIsolation.METRICS_PORT_PROPERTY, OrbIsolation.SLA_PROPERTY);
        }
        String dashboard = settings.apply(Dashboard.PORT_PROPERTY);
        if (dashboard != null && !dashboard.isBlank()) {
            LOG.warn("{} is set but {} is not: the dashboard shows the isolation points an SLA builds, so none"
                    + " is started; set {} to an SLA file", Dashboard.PORT_PROPERTY, OrbIsolation.SLA_PROPERTY,
                    OrbIsolation.SLA_PROPERTY);
        }
    }

    /** A port property (0..65535) when set, or IllegalArgumentException naming it. */
    private static OptionalInt portOf(UnaryOperator<String> settings, String key) {
        String v = settings.apply(key);
        if (v == null || v.isBlank()) {
            return OptionalInt.empty();
        }
        try {
            int p = Integer.parseInt(v.trim());
            if (p >= 0 && p <= 65_535) {
                return OptionalInt.of(p);
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException(key + " must be a port number 0..65535 (0: any free port), got \"" + v + "\"");
    }

    /** An address property (a literal IP address) when set, or IllegalArgumentException naming it. */
    private static InetAddress addressOf(UnaryOperator<String> settings, String key) {
        String v = settings.apply(key);
        if (v == null || v.isBlank()) {
            return null;
        }
        String a = v.trim();
        if (!a.matches("[0-9.]+|[0-9a-fA-F:]*:[0-9a-fA-F:.]*")) {
            throw new IllegalArgumentException(key + " must be an IP address such as 127.0.0.1 or 0.0.0.0, got \"" + v + "\"");
        }
        try {
            return InetAddress.getByName(a); // a literal: no name lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(key + " must be an IP address such as 127.0.0.1 or 0.0.0.0, got \"" + v + "\"");
        }
    }
}
