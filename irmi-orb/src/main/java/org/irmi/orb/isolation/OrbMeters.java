package org.irmi.orb.isolation;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import org.irmi.monitors.PrometheusEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ORB's meters: its own registry, and, when asked for, a Prometheus scrape endpoint serving
 * it. Every meter bound here is also bound to Micrometer's global registry, for applications that
 * add their own registry there; in a JVM with several I-RMI ORBs the global registry keeps the
 * first ORB's meter of each name, while this registry and the scrape endpoint show this ORB's own.
 * The scrape endpoint also serves Micrometer's JVM and process meters ({@code jvm_memory_used_bytes},
 * {@code jvm_gc_pause_seconds}, {@code process_cpu_usage}, ...), bound to its registry only: the
 * global registry is the application's to fill with them.
 *
 * <p>THREADING: any thread.
 */
final class OrbMeters implements AutoCloseable {

    // the glue's log category, as before OrbIsolation was split
    private static final Logger LOG = LoggerFactory.getLogger(OrbIsolation.class);

    private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
    private final PrometheusEndpoint endpoint;
    /** Listens to the JVM's GC notifications while the endpoint serves; null without an endpoint. */
    private final JvmGcMetrics gcMetrics;

    private OrbMeters(PrometheusEndpoint endpoint) {
        this.endpoint = endpoint;
        if (endpoint != null) {
            registry.add(endpoint.registry());
            gcMetrics = new JvmGcMetrics();
            for (MeterBinder jvm : List.of(new JvmMemoryMetrics(), gcMetrics, new JvmThreadMetrics(),
                    new ClassLoaderMetrics(), new ProcessorMetrics(), new UptimeMetrics())) {
                jvm.bindTo(endpoint.registry());
            }
        } else {
            gcMetrics = null;
        }
    }

    /**
     * @param scrapePort when present, serve the meters on {@code http://127.0.0.1:<port>/metrics}
     *                   (0 picks a free port)
     * @throws IllegalStateException naming {@value OrbIsolation#METRICS_PORT_PROPERTY} when the port
     *                               cannot be bound
     */
    static OrbMeters start(OptionalInt scrapePort) {
        if (scrapePort.isEmpty()) {
            return new OrbMeters(null);
        }
        PrometheusEndpoint endpoint;
        try {
            endpoint = PrometheusEndpoint.start(scrapePort.getAsInt());
        } catch (IOException e) {
            throw new IllegalStateException(OrbIsolation.METRICS_PORT_PROPERTY + ": " + e.getMessage(), e);
        }
        OrbMeters meters = new OrbMeters(endpoint);
        LOG.info("irmi metrics at {}", endpoint.url());
        return meters;
    }

    /** Binds {@code binder} to this ORB's registry and to Micrometer's global registry. */
    void bind(MeterBinder binder) {
        binder.bindTo(registry);
        binder.bindTo(Metrics.globalRegistry);
    }

    /** @return this ORB's registry */
    MeterRegistry registry() {
        return registry;
    }

    /** @return whether someone scrapes the meters (a scrape endpoint was started) */
    boolean scraped() {
        return endpoint != null;
    }

    /** @return the scrape URL, when an endpoint was started */
    Optional<String> url() {
        return Optional.ofNullable(endpoint).map(PrometheusEndpoint::url);
    }

    /** Stops the scrape endpoint, if any. */
    @Override
    public void close() {
        if (endpoint != null) {
            gcMetrics.close();
            endpoint.close();
        }
    }
}
