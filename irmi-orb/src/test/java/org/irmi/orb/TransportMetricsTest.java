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
        assertThat(registry.get("irmi.transport.bytes.read").functionCounter().getId().getBaseUnit()).isEqualTo("bytes");
    }
}
