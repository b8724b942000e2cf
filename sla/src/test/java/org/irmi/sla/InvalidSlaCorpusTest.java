package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file in {@code src/test/resources/invalid/} must be refused with exactly the errors in its
 * sibling {@code .expected} file (one {@code file:line:col: message} per line, in file order).
 */
class InvalidSlaCorpusTest {

  static final Path CORPUS = Path.of("src/test/resources/invalid");

  static Stream<Path> corpus() throws IOException {
    try (Stream<Path> files = Files.list(CORPUS)) {
      return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList().stream();
    }
  }

  @Test
  void shouldHoldAtLeastThirtyInvalidFilesWhenCounted() throws IOException {
    assertThat(corpus().count()).isGreaterThanOrEqualTo(30);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void shouldRefuseWithExactlyTheExpectedErrorsWhenFileIsInvalid(Path file) throws IOException {
    Path expectedFile = Path.of(file.toString().replaceAll("\\.yaml$", ".expected"));
    assertThat(expectedFile).as("expected-errors file next to %s", file.getFileName()).exists();
    List<String> expected = Files.readAllLines(expectedFile, StandardCharsets.UTF_8).stream()
        .filter(l -> !l.isBlank()).toList();

    SlaException e = catchThrowableOfType(SlaException.class, () -> Sla.load(file));

    assertThat(e).as("%s must be refused", file.getFileName()).isNotNull();
    assertThat(e.errors()).extracting(SlaError::toString).containsExactlyElementsOf(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void shouldNameFileLineAndColumnWhenReportingAnyError(Path file) {
    SlaException e = catchThrowableOfType(SlaException.class, () -> Sla.load(file));

    assertThat(e.errors()).allSatisfy(err -> {
      assertThat(err.source()).isEqualTo(file.getFileName().toString());
      assertThat(err.line()).isPositive();
      assertThat(err.column()).isPositive();
    });
  }
}
