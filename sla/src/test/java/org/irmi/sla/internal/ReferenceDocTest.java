package org.irmi.sla.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keeps docs/sla-reference.md honest: its annotated example is the real example file, and it names every key. */
class ReferenceDocTest {

  private static String doc() throws IOException {
    return Files.readString(Path.of("../docs/sla-reference.md"));
  }

  @Test
  void shouldEmbedTheOrdersExampleVerbatimWhenShowingTheAnnotatedExample() throws IOException {
    String doc = doc();
    int section = doc.indexOf("## Complete annotated example");
    int start = doc.indexOf("```yaml\n", section) + "```yaml\n".length();
    int end = doc.indexOf("```", start);

    assertThat(doc.substring(start, end)).isEqualTo(Files.readString(Path.of("examples/orders.yaml")));
  }

  @Test
  void shouldMentionEveryAcceptedKeyWhenDocumentingTheSchema() throws IOException {
    String doc = doc();

    for (List<String> keys : SlaKeys.SECTIONS.values()) {
      for (String key : keys) {
        assertThat(doc).as("reference mentions key %s", key).contains("`" + key + "`");
      }
    }
  }
}
