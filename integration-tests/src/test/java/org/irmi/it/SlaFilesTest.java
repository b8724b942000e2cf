package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.irmi.adaptation.AdaptationModules;
import org.irmi.adaptation.IsolationSetup;
import org.irmi.adaptation.ModuleServices;
import org.irmi.isolation.IsolationRuntime;
import org.irmi.sla.ActionConfig;
import org.irmi.sla.DegradeConfig;
import org.irmi.sla.ModuleConfig;
import org.irmi.sla.Sla;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The end-to-end tests' SLA files are SLAs an operator could ship: each one loads without error,
 * and the runtime built from it the way the ORB builds it holds exactly the points the file
 * enables, each with the module its action names. (That every key binds to its value is the sla
 * module's own tests' concern; the end-to-end tests check the values they depend on.)
 */
class SlaFilesTest {

    private static List<Path> slaFiles() throws IOException {
        Path dir = Nodes.sla("poison.yaml").getParent();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
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
            ModuleServices.Builder services = ModuleServices.builder();
            // the application registers the reducers a degrade action names, as ModulesEndToEndTest does
            Stream.of(sla.isolationPoints().slowClient().map(p -> p.action()),
                            sla.isolationPoints().poison().map(p -> p.action()))
                    .flatMap(Optional::stream).flatMap(SlaFilesTest::withFallbacks).map(ActionConfig::module)
                    .filter(DegradeConfig.class::isInstance)
                    .forEach(m -> services.reducer(((DegradeConfig) m).reducer(), (op, args) -> args));
            ModuleServices built = services.build();

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
