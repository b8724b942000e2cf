package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlaCheckTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return SlaCheck.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void shouldExitZeroAndSayOkWhenFileIsValid() {
    int code = run("examples/orders.yaml");

    assertThat(code).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("examples/orders.yaml: OK (service orders)\n");
  }

  @Test
  void shouldReadARelativeFileFromTheCallersDirectoryAndNameItAsGiven(@TempDir Path callerDir) throws Exception {
    Files.copy(Path.of("examples/orders.yaml"), callerDir.resolve("mine.yaml"));
    String before = System.getProperty(SlaCheck.CALLER_DIR_PROPERTY);
    System.setProperty(SlaCheck.CALLER_DIR_PROPERTY, callerDir.toString());
    try {
      int code = run("mine.yaml", Path.of("examples/orders.yaml").toAbsolutePath().toString());

      assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("mine.yaml: OK (service orders)\n")
          .endsWith("examples/orders.yaml: OK (service orders)\n");
    } finally {
      if (before == null) {
        System.clearProperty(SlaCheck.CALLER_DIR_PROPERTY);
      } else {
        System.setProperty(SlaCheck.CALLER_DIR_PROPERTY, before);
      }
    }
  }

  @Test
  void shouldExitOneAndPrintPositionedErrorsWhenFileIsInvalid() {
    int code = run("examples/orders.yaml", "src/test/resources/invalid/16-percent-out-of-range.yaml");

    assertThat(code).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(
        "src/test/resources/invalid/16-percent-out-of-range.yaml:4:21:"
            + " isolationPoints.poison.throughputDrop: must be at most 99%, was 120%\n");
  }

  @Test
  void shouldNameAMissingFileAtLineOneWhenItCannotBeRead() {
    int code = run("no/such/sla.yaml");

    assertThat(code).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("no/such/sla.yaml:1:1: file not found");
  }

  @Test
  void shouldPrintUsageAndExitZeroWhenAskedForHelp() {
    int code = run("--help");

    assertThat(code).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Usage: ./irmi sla-check [-h] FILE...")
        .contains("file:line:col");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void shouldExitTwoWithUsageWhenNoFileIsGiven() {
    int code = run();

    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("Missing required parameter", "Usage: ./irmi sla-check");
  }
}
