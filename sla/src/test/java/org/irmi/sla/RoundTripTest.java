package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** parse -> config -> render YAML -> parse gives an equal config, for every valid example. */
class RoundTripTest {

  static Stream<Path> validFiles() throws IOException {
    List<Path> all = new ArrayList<>();
    for (Path dir : List.of(Path.of("src/test/resources/valid"), Path.of("examples"))) {
      try (Stream<Path> files = Files.list(dir)) {
        files.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(all::add);
      }
    }
    return all.stream();
  }

  @Test
  void shouldFindTheValidExamplesWhenListingThem() throws IOException {
    assertThat(validFiles().count()).isGreaterThanOrEqualTo(8);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validFiles")
  void shouldParseRenderedYamlBackToAnEqualSlaWhenFileIsValid(Path file) {
    Sla original = Sla.load(file);

    Sla reparsed = Sla.parse(original.toYaml(), "rendered-" + file.getFileName());

    assertThat(reparsed).isEqualTo(original);
  }

  @Test
  void shouldRoundTripUnusualValuesWhenSlaIsBuiltInCode() {
    Sla sla = new Sla("odd.values",
        List.of(new ServiceObjective(OperationPattern.of("a\\*b[!x-z]?"), java.util.Optional.of(java.time.Duration.ofNanos(1500)),
            java.util.OptionalDouble.of(100.0 / 60), java.util.OptionalDouble.of(0.125))),
        MonitorsConfig.custom().latency(WindowConfig.of(java.time.Duration.ofMillis(1001), 7)).build(),
        new IsolationPointsConfig(
            java.util.Optional.of(SlowClientConfig.custom().queueGauge("q: with colon").gcPerSecond(1.0 / 3).build()),
            java.util.Optional.of(PoisonConfig.custom().coolDown(java.time.Duration.ofSeconds(3601))
                .action(ActionConfig.of(new ShortCircuitConfig(java.util.Optional.of("true"), false))).build()),
            java.util.Optional.of(CrosstalkConfig.custom().baseReadBudgetBytes(1025).defaultWeight(0.001)
                .addWeight(new StreamWeight(StreamWeight.Kind.TAG, "a:b", 999.5)).build())));

    assertThat(Sla.parse(sla.toYaml(), "odd.yaml")).isEqualTo(sla);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validFiles")
  void shouldRenderTheSameTextWhenRenderingTwice(Path file) {
    Sla original = Sla.load(file);
    String once = original.toYaml();

    String twice = Sla.parse(once, "x.yaml").toYaml();

    assertThat(twice).isEqualTo(once);
  }
}
