package org.irmi.orb.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.UnaryOperator;

import org.irmi.orb.OrbExtension;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.INITIALIZE;

/**
 * How the isolation glue plugs into the ORB and reads its settings. The settings are refused before
 * the ORB is used, so these tests need none; starting from {@code irmi.sla} is tested through real
 * ORBs in {@code OrbIsolationTest} (IrmiORB) and {@code JacorbOrbClassTest} (JacORB's ORB class).
 */
class IsolationExtensionTest {

    private static UnaryOperator<String> settings(String... keysAndValues) {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return m::get;
    }

    @Test
    void shouldBeFoundByTheServiceLoaderWhenOnTheClassPath() {
        assertThat(ServiceLoader.load(OrbExtension.class, OrbExtension.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::type)).containsExactly(IsolationExtension.class);
    }

    @Test
    void shouldStartNothingWhenNoSlaIsSet() {
        assertThat(new IsolationExtension().start(null, settings(OrbIsolation.METRICS_PORT_PROPERTY, "0",
                Dashboard.PORT_PROPERTY, "0"))).isEmpty();
    }

    @Test
    void shouldRefuseNamingThePropertyWhenTheMetricsPortIsNotANumber() {
        assertThatThrownBy(() -> new IsolationExtension().start(null, settings(OrbIsolation.SLA_PROPERTY, "sla.yaml",
                OrbIsolation.METRICS_PORT_PROPERTY, "web")))
                .isInstanceOf(INITIALIZE.class)
                .hasMessage("I-RMI cannot use the SLA sla.yaml: irmi.metrics.port must be a port number, got \"web\"");
    }

    @Test
    void shouldRefuseNamingThePropertyWhenTheDashboardPortIsOutOfRange() {
        assertThatThrownBy(() -> new IsolationExtension().start(null, settings(OrbIsolation.SLA_PROPERTY, "sla.yaml",
                Dashboard.PORT_PROPERTY, "70000")))
                .isInstanceOf(INITIALIZE.class)
                .hasMessage("I-RMI cannot use the SLA sla.yaml: irmi.dashboard.port must be a port number 0..65535"
                        + " (0: any free port), got \"70000\"");
    }

    @Test
    void shouldRefuseNamingThePropertyWhenTheDashboardAddressIsAHostName() {
        assertThatThrownBy(() -> new IsolationExtension().start(null, settings(OrbIsolation.SLA_PROPERTY, "sla.yaml",
                Dashboard.ADDRESS_PROPERTY, "localhost")))
                .isInstanceOf(INITIALIZE.class)
                .hasMessage("I-RMI cannot use the SLA sla.yaml: irmi.dashboard.address must be an IP address such as"
                        + " 127.0.0.1 or 0.0.0.0, got \"localhost\"");
    }
}
