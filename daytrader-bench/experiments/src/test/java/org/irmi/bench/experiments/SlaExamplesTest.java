package org.irmi.bench.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

import org.irmi.adaptation.AdaptationModules;
import org.irmi.adaptation.IsolationSetup;
import org.irmi.adaptation.ModuleServices;
import org.irmi.bench.experiments.internal.SlaFiles;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.SlaBindings;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.PoisonConfig;
import org.irmi.sla.SlowClientConfig;
import org.irmi.sla.Sla;
import org.irmi.sla.WindowConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The experiments' SLA files are worked examples: they must stay valid against the SLA schema, and
 * each must install the points and the modules it names, with the values it sets, as the isolation
 * points and adaptation modules receive them (the same binding the ORB uses).
 */
class SlaExamplesTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"slow-client.yaml", "crosstalk.yaml", "poison.yaml", "poison-setdiff.yaml"})
    void shouldLoadWithoutErrorsWhenParsedBySlaSchema(String file) throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, file));

        assertThat(sla.service()).isNotBlank();
    }

    @ParameterizedTest
    @CsvSource({
            "slow-client.yaml,         slow-client-primary",
            "slow-client-reroute.yaml, slow-client-primary-reroute",
            "poison.yaml,              daytrader-backend",
            "poison-setdiff.yaml,      daytrader-backend",
            "crosstalk.yaml,           crosstalk-server"})
    void shouldNameTheFileServiceWhenLoaded(String file, String service) throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, file));

        assertThat(sla.service()).isEqualTo(service);
    }

    @ParameterizedTest
    @CsvSource({
            "slow-client.yaml,         true,  false, false",
            "slow-client-reroute.yaml, true,  false, false",
            "poison.yaml,              false, true,  false",
            "poison-setdiff.yaml,      false, true,  false",
            "crosstalk.yaml,           false, false, true"})
    void shouldInstallExactlyThePointsTheFileNamesWhenBoundLikeTheOrb(String file, boolean slowClient, boolean poison,
                                                                      boolean crosstalk) throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, file));

        IsolationRuntime rt = IsolationSetup.fromSla(sla, ModuleServices.defaults()).build();

        assertThat(rt.slowClient().isPresent()).as("slow-client point").isEqualTo(slowClient);
        assertThat(rt.poison().isPresent()).as("poison point").isEqualTo(poison);
        assertThat(rt.crosstalkConfig().isPresent()).as("crosstalk point").isEqualTo(crosstalk);
    }

    @Test
    void shouldNameByTheSetDifferenceOnlyWhenPoisonSetDifferenceSlaLoaded() throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, "poison-setdiff.yaml"));

        assertThat(sla.isolationPoints().poison().orElseThrow().attribution()).isFalse();
        assertThat(sla.isolationPoints().poison().orElseThrow().confirmEpisodes()).isEqualTo(2);
    }

    @Test
    void shouldWeightTheLargeStreamEightTimesWhenCrosstalkSlaLoaded() throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, "crosstalk.yaml"));

        assertThat(sla.isolationPoints().crosstalk().orElseThrow().weights())
                .anySatisfy(weight -> assertThat(weight.weight()).isEqualTo(8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"slow-client.yaml", "slow-client-reroute.yaml"})
    void shouldGuardOnlyForwardWithTheFileThresholdsWhenSlowClientSlaBound(String file) throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, file));

        SlowClientConfig sc = sla.isolationPoints().slowClient().orElseThrow();

        assertThat(sc.guards("secondary", "forward")).isTrue();
        assertThat(sc.guards("secondary", "push")).as("only the listed operation").isFalse();
        assertThat(sc.queueGrowthPerSecond()).isEqualTo(10.0);
        assertThat(sc.maxQueueLength()).isEqualTo(40L);
        assertThat(sc.heapPressurePercent()).isEqualTo(60.0);
        assertThat(sc.gcPerSecond()).isEqualTo(8.0);
        assertThat(sc.cpuPercent()).isEqualTo(95.0);
        assertThat(sc.remoteLoad().rtt()).isEqualTo(Duration.ofMillis(10));
        assertThat(sla.monitors().requestRates()).isEqualTo(WindowConfig.of(Duration.ofSeconds(2), 8));
        assertThat(sla.monitors().localResources()).isEqualTo(WindowConfig.of(Duration.ofSeconds(2), 4));
        assertThat(sla.monitors().remoteResources()).isEqualTo(WindowConfig.of(Duration.ofSeconds(5), 5));
        assertThat(sla.monitors().causalPairs()).singleElement().satisfies(pair -> {
            assertThat(pair.incoming().matches("push")).isTrue();
            assertThat(pair.target()).as("any target").isEqualTo(OperationPattern.ANY);
            assertThat(pair.outgoing().matches("forward")).isTrue();
            assertThat(pair.fanOut()).isEqualTo(1.0);
        });
    }

    @Test
    void shouldShortCircuitWhenSlowClientSlaActs() throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, "slow-client.yaml"));

        assertThat(AdaptationModules.fromAction(sla.isolationPoints().slowClient().orElseThrow().action(),
                ModuleServices.defaults()).name()).isEqualTo("short-circuit");
    }

    @Test
    void shouldRerouteToTheNamedReplicasWhenRerouteSlaActs() throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, "slow-client-reroute.yaml"));

        var action = sla.isolationPoints().slowClient().orElseThrow().action();
        assertThat(AdaptationModules.fromAction(action, ModuleServices.defaults()).name()).isEqualTo("reroute");
        assertThat(action.module()).isInstanceOfSatisfying(org.irmi.sla.RerouteConfig.class,
                reroute -> assertThat(reroute.replicas()).isEqualTo("irmi/slowclient.replica"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"poison.yaml", "poison-setdiff.yaml"})
    void shouldDetectAndRejectWithTheFileSettingsWhenPoisonSlaBound(String file) throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, file));
        var poison = sla.isolationPoints().poison().orElseThrow();

        PoisonConfig pc = poison;
        var edges = SlaBindings.edges(poison);

        assertThat(edges.throughputDropPercent()).isEqualTo(15.0);
        assertThat(edges.resourceRisePercent()).isEqualTo(50.0);
        assertThat(edges.resources()).extracting(r -> r.name().toLowerCase()).containsExactlyInAnyOrder("cpu", "gc", "allocation");
        assertThat(pc.baselineWindow()).isEqualTo(WindowConfig.of(Duration.ofSeconds(4), 8));
        assertThat(pc.detectionWindow()).isEqualTo(WindowConfig.of(Duration.ofSeconds(2), 4));
        assertThat(SlaBindings.edgeSamplePeriodNanos(pc)).as("one edge sample per detection bucket")
                .isEqualTo(Duration.ofMillis(500).toNanos());
        assertThat(edges.baselineSamples()).as("the 4 s baseline in 500 ms samples").isEqualTo(8);
        assertThat(sla.monitors().localResources()).isEqualTo(WindowConfig.of(Duration.ofSeconds(2), 4));
        assertThat(pc.minEpisode()).isEqualTo(Duration.ofMillis(500));
        assertThat(pc.coolDown()).isEqualTo(Duration.ofSeconds(60));
        assertThat(pc.attribution()).isEqualTo(file.equals("poison.yaml"));
        for (String normal : new String[] {"login", "logout", "buy", "sell"}) {
            assertThat(pc.isProtected(normal)).as("neverFilter %s", normal).isTrue();
        }
        assertThat(pc.isProtected("poison")).isFalse();
        assertThat(pc.isProtected("getQuote")).as("only what an operator lists").isFalse();
        assertThat(AdaptationModules.fromAction(poison.action(), ModuleServices.defaults()).name()).isEqualTo("reject");
        assertThat(poison.action().module()).isInstanceOfSatisfying(org.irmi.sla.RejectConfig.class, reject -> {
            assertThat(reject.kind()).isEqualTo(org.irmi.sla.SystemExceptionKind.TRANSIENT);
            assertThat(reject.reason()).isEqualTo("poison request type filtered by I-RMI");
        });
        assertThat(sla.monitors().perRequestCost()).isTrue();
    }

    @Test
    void shouldGiveTheBulkObjectEightTimesTheBudgetWhenCrosstalkSlaBound() throws Exception {
        Sla sla = Sla.load(SlaFiles.extract(dir, "crosstalk.yaml"));

        CrosstalkConfig cc = sla.isolationPoints().crosstalk().orElseThrow();

        assertThat(cc.baseReadBudgetBytes()).isEqualTo(16 * 1024L);
        assertThat(cc.minReceiveBufferBytes()).isEqualTo(8 * 1024L);
        assertThat(cc.maxReceiveBufferBytes()).isEqualTo(128 * 1024L);
        assertThat(cc.defaultWeight()).isEqualTo(1.0);
        assertThat(cc.idleAfter()).isEqualTo(Duration.ofMillis(500));
        assertThat(cc.weightPer()).isEqualTo(CrosstalkConfig.WeightPer.RULE);
        assertThat(cc.weights()).singleElement().satisfies(rule -> {
            assertThat(rule.weight()).isEqualTo(8.0);
            assertThat(rule.matches("CrosstalkPOA/bulk")).isTrue();
            assertThat(rule.matches("CrosstalkPOA/small")).isFalse();
        });
    }
}
