package org.irmi.sla.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** The JSON Schema that editors use accepts every valid example and flags typical mistakes. */
class SchemaAcceptsExamplesTest {

  @SuppressWarnings("unchecked")
  private static MiniSchemaValidator validator() throws IOException {
    String json = Files.readString(Path.of("../docs/sla.schema.json"));
    return new MiniSchemaValidator((Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(json));
  }

  private static Object yaml(Path file) throws IOException {
    return new Load(LoadSettings.builder().build()).loadFromString(Files.readString(file));
  }

  static Stream<Path> validFiles() throws IOException {
    List<Path> all = new ArrayList<>();
    for (Path dir : List.of(Path.of("src/test/resources/valid"), Path.of("examples"))) {
      try (Stream<Path> files = Files.list(dir)) {
        files.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(all::add);
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validFiles")
  void shouldAcceptFileWhenTheLoaderAcceptsIt(Path file) throws IOException {
    assertThat(validator().validate(yaml(file))).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "07-misspelt-top-level-key.yaml", "08-misspelt-poison-key.yaml", "10-duration-without-unit.yaml",
      "14-decimal-size-unit.yaml", "15-percent-without-unit.yaml", "17-rate-without-unit.yaml",
      "19-misspelt-module.yaml", "20-unqualified-unknown-module.yaml", "21-key-of-another-module.yaml",
      "28-weight-with-two-selectors.yaml", "29-weight-zero.yaml", "35-yes-is-not-a-boolean.yaml",
      "42-unknown-resource.yaml", "46-reject-kind-lower-case.yaml", "50-service-name-with-spaces.yaml"})
  void shouldFlagMistakeWhenEditorChecksAgainstTheSchema(String name) throws IOException {
    assertThat(validator().validate(yaml(Path.of("src/test/resources/invalid", name)))).isNotEmpty();
  }
}
