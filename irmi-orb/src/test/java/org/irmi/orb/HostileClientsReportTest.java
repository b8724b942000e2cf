package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The hostile-clients benchmark's report and arguments (the benchmark itself is run by scripts/hostile-bench.sh). */
class HostileClientsReportTest {

    private static HostileClientsBenchmark.Trial trial(String orb, int n, long quietP99, long hostileP99) {
        return new HostileClientsBenchmark.Trial(orb, n, 100, quietP99, 120, hostileP99, 1000, 0, 200_000, true, 0, 0, "",
                0, 0, 0, 0, 0.5, 0.2, null);
    }

    private static HostileClientsBenchmark.Trial trial(String orb, int n, long quietP99, long decoyP99, long hostileP99) {
        return new HostileClientsBenchmark.Trial(orb, n, 100, quietP99, 120, hostileP99, 1000, 0, 200_000, true, 0, 0, "",
                0, 0, 0, 0, 0.5, 0.2, new HostileClientsBenchmark.Decoy(110, decoyP99, 0, 5000, true, 0.25));
    }

    @Test
    void shouldSeparateTheMachinesShareFromTheServersWhenTrialsHadADecoyPhase() {
        String report = HostileClientsBenchmark.report(List.of(trial("irmi", 1, 200, 300, 330), trial("irmi", 2, 200, 400, 400),
                trial("irmi", 3, 250, 250, 500)), HostileClientsBenchmark.servers("irmi"), 3, 10, 20, 20, "--servers irmi");

        // per trial: 1.65x quiet = 1.50x the machine's share (decoy / quiet) x 1.10x the server's own (hostile / decoy)
        assertThat(report).contains("| 110 / 300 | 120 / 330 | 1.65x | 1.50x | 1.10x |")
                .contains("| I-RMI | 2.00x (1.65 - 2.00) | 1.50x (1.00 - 2.00) | 1.10x (1.00 - 2.00) | 0 | yes |")
                .contains("decoy: flood replies/s 5000, lost 0; machine idle hostile 20%, decoy 25%")
                .contains("then 20 s while the same attackers attack a decoy instead");
    }

    @Test
    void shouldReportOnlyTheServersThatRan() {
        String report = HostileClientsBenchmark.report(List.of(trial("irmi", 1, 1000, 2000), trial("irmi", 2, 1000, 1500),
                trial("irmi", 3, 1000, 3000)), HostileClientsBenchmark.servers("irmi"), 3, 10, 0, 20, "--servers irmi");

        assertThat(report).doesNotContain("NaN")
                .doesNotContain("stock JacORB |") // no row for the server that did not run
                .contains("| I-RMI | 2.00x (1.50 - 3.00) | - | - | 0 | yes |")
                .contains("on I-RMI only");
    }

    @Test
    void shouldReportBothServersInterleaved() {
        String report = HostileClientsBenchmark.report(List.of(trial("irmi", 1, 1000, 1100), trial("stock", 1, 1000, 9000)),
                HostileClientsBenchmark.servers("irmi,stock"), 1, 10, 0, 20, "");

        assertThat(report).contains("| I-RMI | 1.10x (1.10 - 1.10) | - | - | 0 | yes |")
                .contains("| stock JacORB | 9.00x (9.00 - 9.00) | - | - | 0 | yes |")
                .contains("I-RMI and stock JacORB interleaved");
    }

    @Test
    void shouldRefuseAnUnknownOrRepeatedServer() {
        assertThatThrownBy(() -> HostileClientsBenchmark.servers("irmi,omniorb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HostileClientsBenchmark.servers("irmi,irmi")).isInstanceOf(IllegalArgumentException.class);
        assertThat(HostileClientsBenchmark.servers("stock,irmi")).containsExactly("stock", "irmi");
    }
}
