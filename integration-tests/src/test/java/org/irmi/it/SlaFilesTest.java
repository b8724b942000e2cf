package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.irmi.adaptation.AdaptationModules;
import org.irmi.adaptation.IsolationSetup;
import org.irmi.adaptation.ModuleServices;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.isolation.SlaBindings;
import org.irmi.monitors.EdgeDetectorConfig;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.AdaptiveLimitConfig;
import org.irmi.sla.CausalPair;
import org.irmi.sla.CrosstalkConfig;
import org.irmi.sla.DeferConfig;
import org.irmi.sla.DegradeConfig;
import org.irmi.sla.ModuleConfig;
import org.irmi.sla.MonitorsConfig;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.PoisonConfig;
import org.irmi.sla.ProbationConfig;
import org.irmi.sla.RejectConfig;
import org.irmi.sla.RerouteConfig;
import org.irmi.sla.ServiceObjective;
import org.irmi.sla.ShortCircuitConfig;
import org.irmi.sla.Sla;
import org.irmi.sla.SlowClientConfig;
import org.irmi.sla.StreamWeight;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.sla.TargetSelector;
import org.irmi.sla.ThrottleConfig;
import org.irmi.sla.WindowConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The end-to-end tests' SLA files are SLAs an operator could ship: each one loads without error,
 * and the runtime built from it the way the ORB builds it holds exactly the points the file
 * enables, each with the module its action names, and every value the file sets, as the binder's
 * typed configs, the installed crosstalk point and the poison point's edge detector receive it.
 * (That every key binds to its value in general is the sla module's own tests' concern; these
 * checks pin what the end-to-end tests' own files set, so a file edited without its test fails.)
 */
class SlaFilesTest {

    /**
     * The value checks of each test SLA file, by file name; a file without one fails
     * {@link #shouldCheckEveryValueOfEachTestSlaFileWhenTheDirectoryHoldsIt}.
     */
    private static final Map<String, BiConsumer<Sla, IsolationRuntime>> VALUES = Map.ofEntries(
            Map.entry("bench-client.yaml", SlaFilesTest::benchClient),
            Map.entry("bench-server.yaml", SlaFilesTest::benchServer),
            Map.entry("cooperation-backend.yaml", SlaFilesTest::cooperationBackend),
            Map.entry("cooperation-front.yaml", SlaFilesTest::cooperationFront),
            Map.entry("crosstalk-control.yaml", SlaFilesTest::crosstalkControl),
            Map.entry("crosstalk.yaml", SlaFilesTest::crosstalk),
            Map.entry("dashboard.yaml", SlaFilesTest::dashboard),
            Map.entry("modules-adaptive-limit.yaml", SlaFilesTest::modulesAdaptiveLimit),
            Map.entry("modules-defer.yaml", SlaFilesTest::modulesDefer),
            Map.entry("modules-degrade.yaml", SlaFilesTest::modulesDegrade),
            Map.entry("modules-short-circuit.yaml", SlaFilesTest::modulesShortCircuit),
            Map.entry("modules-throttle.yaml", SlaFilesTest::modulesThrottle),
            Map.entry("poison-healing.yaml", SlaFilesTest::poisonHealing),
            Map.entry("poison.yaml", SlaFilesTest::poison),
            Map.entry("slow-client-primary.yaml", SlaFilesTest::slowClientPrimary));

    private static List<Path> slaFiles() throws IOException {
        Path dir = Nodes.sla("poison.yaml").getParent();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    private static Stream<String> slaFileNames() throws IOException {
        return slaFiles().stream().map(p -> p.getFileName().toString());
    }

    @Test
    void shouldLoadEveryTestSlaFileWhenValidatedLikeTheOrbDoes() throws IOException {
        List<Path> files = slaFiles();
        assertThat(files).hasSizeGreaterThanOrEqualTo(13);
        for (Path f : files) {
            Sla sla = Sla.load(f); // throws SlaException with file:line:col for any error
            assertThat(sla.service()).as(f.getFileName().toString()).isNotBlank();
            assertThat(sla.isolationPoints().slowClient().isPresent() || sla.isolationPoints().poison().isPresent()
                    || sla.isolationPoints().crosstalk().isPresent()).as(f + " installs a point").isTrue();
        }
    }

    @Test
    void shouldInstallThePointsAndModulesEachTestSlaFileNamesWhenBoundLikeTheOrb() throws IOException {
        for (Path f : slaFiles()) {
            String file = f.getFileName().toString();
            Map<?, ?> points = map(map(new Load(LoadSettings.builder().build()).loadFromString(Files.readString(f)))
                    .get("isolationPoints"));
            Sla sla = Sla.load(f);
            ModuleServices built = services(sla);

            IsolationRuntime rt = IsolationSetup.fromSla(sla, built).build();

            assertThat(rt.slowClient().isPresent()).as(file + ": slowClient").isEqualTo(enabled(points, "slowClient"));
            assertThat(rt.poison().isPresent()).as(file + ": poison").isEqualTo(enabled(points, "poison"));
            assertThat(rt.crosstalkConfig().isPresent()).as(file + ": crosstalk").isEqualTo(enabled(points, "crosstalk"));
            if (enabled(points, "slowClient")) {
                assertModules(file + ": slowClient", map(points.get("slowClient")).get("action"),
                        sla.isolationPoints().slowClient().orElseThrow().action(), built);
            }
            if (enabled(points, "poison")) {
                assertModules(file + ": poison", map(points.get("poison")).get("action"),
                        sla.isolationPoints().poison().orElseThrow().action(), built);
            }
        }
    }

    @Test
    void shouldCheckEveryValueOfEachTestSlaFileWhenTheDirectoryHoldsIt() throws IOException {
        assertThat(VALUES.keySet()).as("a value check for each test SLA file, and none for a file that is gone")
                .containsExactlyInAnyOrderElementsOf(slaFileNames().toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("slaFileNames")
    void shouldBindEveryValueTheFileSetsWhenBoundLikeTheOrb(String file) {
        assertValues(file, Sla.load(Nodes.sla(file)));
    }

    /** Checks every value {@code file} sets, on {@code sla} and on the runtime built from it like the ORB does. */
    private static void assertValues(String file, Sla sla) {
        assertThat(VALUES).as("the value check of " + file).containsKey(file);
        IsolationRuntime rt = IsolationSetup.fromSla(sla, services(sla)).build();
        VALUES.get(file).accept(sla, rt);
    }

    // ---- the values of each file, in the file's order ----

    private static void benchClient(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("bench-client");
        assertThat(sla.monitors().causalPairs()).as("monitors.causalPairs")
                .containsExactly(CausalPair.of("publish", "*", "quote"));
        SlowClientConfig sc = sla.isolationPoints().slowClient().orElseThrow();
        assertThat(sc.reactToPeerOverload()).as("slowClient.reactToPeerOverload").isFalse();
        assertThat(sc.action()).as("slowClient.action").isEqualTo(ActionConfig.of(ShortCircuitConfig.ofDefaults()));
    }

    private static void benchServer(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("bench-server");
        assertThat(sla.monitors().perRequestCost()).as("monitors.perRequestCost").isTrue();
        assertThat(sla.isolationPoints().poison().orElseThrow().enabled()).as("poison.enabled").isTrue();
        CrosstalkConfig cc = sla.isolationPoints().crosstalk().orElseThrow();
        assertThat(cc.enabled()).as("crosstalk.enabled").isTrue();
        assertThat(rt.crosstalkConfig()).as("the installed crosstalk point's config").containsSame(cc);
    }

    private static void cooperationBackend(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("cooperation-backend");
        assertThat(sla.monitors().localResources()).as("monitors.localResources").isEqualTo(window(1000, 4));
        assertThat(sla.monitors().perRequestCost()).as("monitors.perRequestCost").isTrue();
        PoisonConfig pc = sla.isolationPoints().poison().orElseThrow();
        assertEdges(pc, 30, 50);
        assertThat(pc.baselineWindow()).as("poison.baselineWindow").isEqualTo(window(3000, 6));
        assertThat(pc.detectionWindow()).as("poison.detectionWindow").isEqualTo(window(1000, 4));
        assertThat(SlaBindings.edges(pc).baselineSamples()).as("edge detector: 3 s baseline in 250 ms samples")
                .isEqualTo(12);
        assertThat(pc.action()).as("poison.action").isEqualTo(ActionConfig.of(RejectConfig.ofDefaults()));
    }

    private static void cooperationFront(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("cooperation-front");
        assertThat(sla.monitors().remoteResources()).as("monitors.remoteResources").isEqualTo(window(1000, 4));
        SlowClientConfig sc = sla.isolationPoints().slowClient().orElseThrow();
        assertThat(sc.reactToPeerOverload()).as("slowClient.reactToPeerOverload").isTrue();
        assertThat(sc.action()).as("slowClient.action").isEqualTo(ActionConfig.of(ShortCircuitConfig.ofDefaults()));
    }

    private static void crosstalkControl(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("crosstalk-server");
        CrosstalkConfig cc = sla.isolationPoints().crosstalk().orElseThrow();
        assertThat(cc.enabled()).as("crosstalk.enabled").isFalse();
        assertWeightedStreams(cc);
    }

    private static void crosstalk(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("crosstalk-server");
        CrosstalkConfig cc = sla.isolationPoints().crosstalk().orElseThrow();
        assertThat(cc.enabled()).as("crosstalk.enabled").isTrue();
        assertWeightedStreams(cc);
        assertThat(rt.crosstalkConfig()).as("the installed crosstalk point's config").containsSame(cc);
    }

    /** crosstalk.yaml and crosstalk-control.yaml: the same weights, on and off. */
    private static void assertWeightedStreams(CrosstalkConfig cc) {
        assertThat(cc.baseReadBudgetBytes()).as("crosstalk.baseReadBudget").isEqualTo(3 * 1024L);
        assertThat(cc.minReceiveBufferBytes()).as("crosstalk.receiveBuffer.min").isEqualTo(64 * 1024L);
        assertThat(cc.maxReceiveBufferBytes()).as("crosstalk.receiveBuffer.max").isEqualTo(256 * 1024L);
        assertThat(cc.defaultWeight()).as("crosstalk.defaultWeight").isEqualTo(1.0);
        assertThat(cc.idleAfter()).as("crosstalk.idleAfter").isEqualTo(Duration.ofMillis(500));
        assertThat(cc.weights()).as("crosstalk.weights").containsExactly(
                new StreamWeight(StreamWeight.Kind.OBJECT_KEY, "*stream-w2", 2),
                new StreamWeight(StreamWeight.Kind.OBJECT_KEY, "*stream-w4", 4));
    }

    private static void dashboard(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("backend");
        assertThat(sla.objectives()).as("objectives").containsExactly(
                new ServiceObjective(OperationPattern.of("quote"), Optional.of(Duration.ofMillis(50)),
                        OptionalDouble.of(10), OptionalDouble.of(1)),
                new ServiceObjective(OperationPattern.ANY, Optional.empty(), OptionalDouble.empty(),
                        OptionalDouble.of(5)));
        MonitorsConfig m = sla.monitors();
        assertThat(m.localResources()).as("monitors.localResources").isEqualTo(window(1000, 4));
        assertThat(m.perRequestCost()).as("monitors.perRequestCost").isTrue();
        assertThat(m.causalPairs()).as("monitors.causalPairs")
                .containsExactly(CausalPair.of("publish", "*", "deliver"));
        PoisonConfig pc = sla.isolationPoints().poison().orElseThrow();
        assertEdges(pc, 30, 50);
        assertThat(pc.baselineWindow()).as("poison.baselineWindow").isEqualTo(window(4000, 8));
        assertThat(pc.detectionWindow()).as("poison.detectionWindow").isEqualTo(window(1000, 4));
        assertThat(pc.coolDown()).as("poison.coolDown").isEqualTo(Duration.ofMinutes(5));
        assertThat(pc.action()).as("poison.action").isEqualTo(rejectTransient());
        CrosstalkConfig cc = sla.isolationPoints().crosstalk().orElseThrow();
        assertThat(cc.enabled()).as("crosstalk.enabled").isTrue();
        assertThat(cc.baseReadBudgetBytes()).as("crosstalk.baseReadBudget").isEqualTo(8 * 1024L);
        assertThat(cc.minReceiveBufferBytes()).as("crosstalk.receiveBuffer.min").isEqualTo(16 * 1024L);
        assertThat(cc.maxReceiveBufferBytes()).as("crosstalk.receiveBuffer.max").isEqualTo(1024 * 1024L);
        assertThat(cc.defaultWeight()).as("crosstalk.defaultWeight").isEqualTo(1.0);
        assertThat(cc.idleAfter()).as("crosstalk.idleAfter").isEqualTo(Duration.ofMillis(500));
        assertThat(cc.weights()).as("crosstalk.weights")
                .containsExactly(new StreamWeight(StreamWeight.Kind.CLIENT, "127.0.0.0/8", 2));
        assertThat(rt.crosstalkConfig()).as("the installed crosstalk point's config").containsSame(cc);
        SlowClientConfig sc = sla.isolationPoints().slowClient().orElseThrow();
        assertThat(sc.reactToPeerOverload()).as("slowClient.reactToPeerOverload").isFalse();
        assertThat(sc.action()).as("slowClient.action").isEqualTo(rejectTransient());
    }

    private static void modulesAdaptiveLimit(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("modules-adaptive-limit");
        AdaptiveLimitConfig.Aimd aimd = new AdaptiveLimitConfig.Aimd(0.5, AdaptiveLimitConfig.Aimd.DEFAULT.increase(),
                Duration.ofMillis(20));
        assertThat(fig3Primary(sla).action()).as("slowClient.action").isEqualTo(ActionConfig.of(new AdaptiveLimitConfig(
                AdaptiveLimitConfig.Algorithm.AIMD, 4, 1, 8, AdaptiveLimitConfig.Gradient.DEFAULT, aimd)));
    }

    private static void modulesDefer(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("modules-defer");
        assertThat(fig3Primary(sla).action()).as("slowClient.action").isEqualTo(ActionConfig.of(
                new DeferConfig(8, Duration.ofMillis(100), 50, DeferConfig.DEFAULT_WHEN_FULL)));
    }

    private static void modulesDegrade(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("modules-degrade");
        assertThat(fig3Primary(sla).action()).as("slowClient.action")
                .isEqualTo(ActionConfig.of(new DegradeConfig("thumbnail")));
    }

    private static void modulesShortCircuit(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("modules-short-circuit");
        assertThat(fig3Primary(sla).action()).as("slowClient.action")
                .isEqualTo(ActionConfig.of(ShortCircuitConfig.ofDefaults()));
    }

    private static void modulesThrottle(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("modules-throttle");
        assertThat(fig3Primary(sla).action()).as("slowClient.action")
                .isEqualTo(ActionConfig.of(new ThrottleConfig(10, 2)));
    }

    private static void poisonHealing(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("backend");
        assertThat(sla.monitors().perRequestCost()).as("monitors.perRequestCost").isTrue();
        PoisonConfig pc = sla.isolationPoints().poison().orElseThrow();
        assertEdges(pc, 99, 10_000);
        assertThat(pc.minEpisode()).as("poison.minEpisode").isEqualTo(Duration.ofMinutes(10));
        assertThat(pc.coolDown()).as("poison.coolDown").isEqualTo(Duration.ofSeconds(1));
        assertThat(pc.probation()).as("poison.probation").isEqualTo(new ProbationConfig(20, Duration.ofSeconds(1)));
        assertThat(pc.action()).as("poison.action").isEqualTo(rejectTransient());
    }

    private static void poison(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("backend");
        assertThat(sla.monitors().localResources()).as("monitors.localResources").isEqualTo(window(1000, 4));
        assertThat(sla.monitors().perRequestCost()).as("monitors.perRequestCost").isTrue();
        PoisonConfig pc = sla.isolationPoints().poison().orElseThrow();
        assertEdges(pc, 30, 50);
        assertThat(pc.baselineWindow()).as("poison.baselineWindow").isEqualTo(window(4000, 8));
        assertThat(pc.detectionWindow()).as("poison.detectionWindow").isEqualTo(window(1000, 4));
        assertThat(SlaBindings.edges(pc).baselineSamples()).as("edge detector: 4 s baseline in 250 ms samples")
                .isEqualTo(16);
        assertThat(pc.coolDown()).as("poison.coolDown").isEqualTo(Duration.ofMinutes(5));
        assertThat(pc.action()).as("poison.action").isEqualTo(rejectTransient());
    }

    private static void slowClientPrimary(Sla sla, IsolationRuntime rt) {
        assertThat(sla.service()).as("service").isEqualTo("slow-client-primary");
        assertThat(fig3Primary(sla).action()).as("slowClient.action").isEqualTo(ActionConfig.of(
                new RerouteConfig("irmi/sink.replicas", Optional.empty(), Duration.ofSeconds(2)),
                ActionConfig.of(RejectConfig.ofDefaults())));
    }

    /**
     * The monitors and slow-client thresholds every primary of the paper's Fig. 3 shares
     * (slow-client-primary.yaml and modules-*.yaml but for their action).
     *
     * @return the slow-client section, for the file's own action
     */
    private static SlowClientConfig fig3Primary(Sla sla) {
        MonitorsConfig m = sla.monitors();
        assertThat(m.requestRates()).as("monitors.requestRates").isEqualTo(window(2000, 8));
        assertThat(m.localResources()).as("monitors.localResources").isEqualTo(window(1000, 4));
        assertThat(m.remoteResources()).as("monitors.remoteResources").isEqualTo(window(1000, 4));
        assertThat(m.causalPairs()).as("monitors.causalPairs")
                .containsExactly(new CausalPair(OperationPattern.of("publish"), OperationPattern.ANY,
                        OperationPattern.of("deliver"), 1));
        SlowClientConfig sc = sla.isolationPoints().slowClient().orElseThrow();
        assertThat(sc.targets()).as("slowClient.targets")
                .containsExactly(new TargetSelector(OperationPattern.ANY, List.of(OperationPattern.of("deliver"))));
        assertThat(sc.queueGrowthPerSecond()).as("slowClient.queueGrowth").isEqualTo(5.0);
        assertThat(sc.maxQueueLength()).as("slowClient.maxQueueLength").isEqualTo(100L);
        assertThat(sc.remoteLoad().rtt()).as("slowClient.remoteLoad.rtt").isEqualTo(Duration.ofMillis(20));
        return sc;
    }

    /** The poison section's edge thresholds, and the edge detector the ORB builds from them. */
    private static void assertEdges(PoisonConfig pc, double throughputDropPercent, double resourceRisePercent) {
        assertThat(pc.throughputDropPercent()).as("poison.throughputDrop").isEqualTo(throughputDropPercent);
        assertThat(pc.resourceRisePercent()).as("poison.resourceRise").isEqualTo(resourceRisePercent);
        EdgeDetectorConfig edges = SlaBindings.edges(pc);
        assertThat(edges.throughputDropPercent()).as("edge detector: throughputDrop").isEqualTo(throughputDropPercent);
        assertThat(edges.resourceRisePercent()).as("edge detector: resourceRise").isEqualTo(resourceRisePercent);
    }

    private static ActionConfig rejectTransient() {
        return ActionConfig.of(new RejectConfig(SystemExceptionKind.TRANSIENT, OptionalInt.empty(),
                RejectConfig.DEFAULT_REASON));
    }

    private static WindowConfig window(long lengthMillis, int buckets) {
        return WindowConfig.of(Duration.ofMillis(lengthMillis), buckets);
    }

    /**
     * The services the ORB gives the modules, with a reducer registered under each name a degrade
     * action (or fallback) names, as the application does (see ModulesEndToEndTest).
     */
    private static ModuleServices services(Sla sla) {
        ModuleServices.Builder services = ModuleServices.builder();
        Stream.of(sla.isolationPoints().slowClient().map(p -> p.action()),
                        sla.isolationPoints().poison().map(p -> p.action()))
                .flatMap(Optional::stream).flatMap(SlaFilesTest::withFallbacks).map(ActionConfig::module)
                .filter(DegradeConfig.class::isInstance)
                .forEach(m -> services.reducer(((DegradeConfig) m).reducer(), (op, args) -> args));
        return services.build();
    }

    /**
     * The module built for {@code action}, and for each fallback in turn, is the one the file's
     * {@code action} names ({@code reject} when the file names none, the documented default).
     */
    private static void assertModules(String where, Object yamlAction, ActionConfig action, ModuleServices services) {
        Object named = yamlAction == null ? ModuleConfig.REJECT : map(yamlAction).get("module");
        assertThat(AdaptationModules.fromAction(action, services).name()).as(where + " module").isEqualTo(named);
        Object yamlFallback = yamlAction == null ? null : map(yamlAction).get("fallback");
        assertThat(action.fallback().isPresent()).as(where + " has a fallback").isEqualTo(yamlFallback != null);
        if (yamlFallback != null) {
            assertModules(where + " fallback", yamlFallback, action.fallback().get(), services);
        }
    }

    private static Stream<ActionConfig> withFallbacks(ActionConfig a) {
        return Stream.concat(Stream.of(a), a.fallback().stream().flatMap(SlaFilesTest::withFallbacks));
    }

    /** The file has the point's section and does not set {@code enabled: false}. */
    private static boolean enabled(Map<?, ?> points, String point) {
        return points.containsKey(point) && !Boolean.FALSE.equals(map(points.get(point)).get("enabled"));
    }

    private static Map<?, ?> map(Object yaml) {
        return yaml == null ? Map.of() : (Map<?, ?>) yaml;
    }
}
