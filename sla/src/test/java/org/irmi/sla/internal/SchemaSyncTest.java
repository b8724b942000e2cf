package org.irmi.sla.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.irmi.sla.Sla;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Keeps {@code docs/sla.schema.json} and the parser in step: each parser section is a schema
 * {@code $def} with exactly the parser's keys, and every key the parser accepts is exercised by the
 * round-trip examples.
 */
class SchemaSyncTest {

  private static final Set<String> VALUE_DEFS = Set.of("duration", "size", "percent", "rate", "glob", "action");

  @SuppressWarnings("unchecked")
  private static Map<String, Object> defs() throws IOException {
    String json = Files.readString(Path.of("../docs/sla.schema.json"));
    Map<String, Object> schema = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(json);
    return (Map<String, Object>) schema.get("$defs");
  }

  @SuppressWarnings("unchecked")
  private static Set<String> properties(Map<String, Object> defs, String name) {
    Map<String, Object> def = (Map<String, Object>) defs.get(name);
    assertThat(def).as("schema $defs.%s", name).isNotNull();
    return new TreeSet<>(((Map<String, Object>) def.get("properties")).keySet());
  }

  @Test
  void shouldHaveEverySectionOfTheParserWhenReadingTheSchema() throws IOException {
    Map<String, Object> defs = defs();

    Set<String> schemaSections = new TreeSet<>(defs.keySet());
    schemaSections.removeAll(VALUE_DEFS);

    assertThat(schemaSections).isEqualTo(new TreeSet<>(SlaKeys.SECTIONS.keySet()));
  }

  @Test
  void shouldListExactlyTheParserKeysWhenComparingEachSection() throws IOException {
    Map<String, Object> defs = defs();

    for (Map.Entry<String, List<String>> section : SlaKeys.SECTIONS.entrySet()) {
      assertThat(properties(defs, section.getKey()))
          .as("keys of section %s: schema vs parser", section.getKey())
          .isEqualTo(new TreeSet<>(section.getValue()));
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void shouldOfferEveryModuleWhenSchemaListsActionAlternatives() throws IOException {
    Map<String, Object> action = (Map<String, Object>) defs().get("action");

    Set<String> refs = ((List<Map<String, Object>>) action.get("oneOf")).stream()
        .map(m -> ((String) m.get("$ref")).replace("#/$defs/", ""))
        .collect(Collectors.toCollection(TreeSet::new));

    Set<String> expected = SlaKeys.BUILT_IN_MODULES.stream().map(m -> SlaKeys.ACTION_PREFIX + m)
        .collect(Collectors.toCollection(TreeSet::new));
    expected.add(SlaKeys.ACTION_CUSTOM);
    assertThat(refs).isEqualTo(expected);
  }

  @Test
  void shouldExerciseEveryAcceptedKeyWhenRenderingTheValidExamples() throws IOException {
    Set<String> rendered = new HashSet<>();
    for (Path dir : List.of(Path.of("src/test/resources/valid"), Path.of("../sla/examples"))) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
          collectKeys(new Load(LoadSettings.builder().build()).loadFromString(Sla.load(f).toYaml()), rendered);
        }
      }
    }

    Set<String> accepted = new TreeSet<>();
    SlaKeys.SECTIONS.values().forEach(accepted::addAll);
    assertThat(rendered).containsAll(accepted);
  }

  @SuppressWarnings("unchecked")
  private static void collectKeys(Object node, Set<String> keys) {
    if (node instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        keys.add(String.valueOf(e.getKey()));
        collectKeys(e.getValue(), keys);
      }
    } else if (node instanceof List<?> l) {
      l.forEach(x -> collectKeys(x, keys));
    }
  }
}
