package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

class TransportMetricsTest {

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    @Test
    void shouldReadTransportCountersWhenScraped() {
        server = Orbs.irmi();
        client = Orbs.irmi();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new TransportMetrics(Orbs.transport(server)).bindTo(registry);
        for (int i = 0; i < 3; i++) {
            echo.echoString("m");
        }
        assertThat(registry.get("irmi.transport.messages.read").functionCounter().count()).isGreaterThanOrEqualTo(3);
        assertThat(registry.get("irmi.transport.connections.open").gauge().value()).isEqualTo(1);
        assertThat(registry.get("irmi.transport.bytes.read").functionCounter().getId().getBaseUnit())
                .as("the name says bytes: Prometheus would repeat a base unit").isNull();
        assertThat(registry.get("irmi.transport.inbound.held").gauge().getId().getBaseUnit()).isEqualTo("bytes");
    }

    @Test
    void shouldSayEachUnitOnceWhenPrometheusNamesTheMeters() {
        server = Orbs.irmi();
        client = Orbs.irmi();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));
        echo.echoString("m");
        io.micrometer.prometheusmetrics.PrometheusMeterRegistry registry = new io.micrometer.prometheusmetrics
                .PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
        new TransportMetrics(Orbs.transport(server)).bindTo(registry);

        String body = registry.scrape();

        assertThat(body).contains("irmi_transport_connections_accepted_total ", "irmi_transport_bytes_read_total ",
                        "irmi_transport_messages_read_total ", "irmi_transport_connections_open ",
                        "irmi_transport_requests_in_flight ", "irmi_transport_reader_takeovers_total ",
                        "irmi_transport_accept_failures_total ", "irmi_transport_message_errors_total ",
                        "irmi_transport_connections_shed_total{reason=\"idle\"} ", "irmi_transport_inbound_held_bytes ")
                .doesNotContain("_connections_accepted_connections", "_bytes_read_bytes", "_messages_read_messages",
                        "_connections_open_connections", "_in_flight_requests", "_takeovers_takeovers");
    }
}
