package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OperationPatternTest {

  @Test
  void shouldMatchOnlyTheNameWhenGlobIsLiteral() {
    OperationPattern p = OperationPattern.of("getQuote");

    assertThat(p.isLiteral()).isTrue();
    assertThat(p.matches("getQuote")).isTrue();
    assertThat(p.matches("getQuotes")).isFalse();
  }

  @Test
  void shouldMatchAnyRunWhenGlobHasStar() {
    OperationPattern p = OperationPattern.of("get*");

    assertThat(p.matches("get")).isTrue();
    assertThat(p.matches("getAllQuotes")).isTrue();
    assertThat(p.matches("forget")).isFalse();
  }

  @Test
  void shouldMatchOneCharacterWhenGlobHasQuestionMarkOrClass() {
    assertThat(OperationPattern.of("node?").matches("node7")).isTrue();
    assertThat(OperationPattern.of("node?").matches("node")).isFalse();
    assertThat(OperationPattern.of("node[0-3]").matches("node2")).isTrue();
    assertThat(OperationPattern.of("node[!0-3]").matches("node2")).isFalse();
  }

  @Test
  void shouldTreatRegexCharactersLiterallyWhenTheyAppearInGlob() {
    assertThat(OperationPattern.of("a.b+c").matches("a.b+c")).isTrue();
    assertThat(OperationPattern.of("a.b+c").matches("axbbc")).isFalse();
    assertThat(OperationPattern.of("\\*x").matches("*x")).isTrue();
    assertThat(OperationPattern.of("\\*x").matches("yx")).isFalse();
  }

  @Test
  void shouldRefuseGlobWhenEmptyOrMalformed() {
    assertThatThrownBy(() -> OperationPattern.of("")).hasMessageContaining("empty pattern");
    assertThatThrownBy(() -> OperationPattern.of("a[]")).hasMessageContaining("empty character class");
    assertThatThrownBy(() -> OperationPattern.of("a\\")).hasMessageContaining("lone '\\'");
  }

  @Test
  void shouldMatchEveryNameButNullWhenGlobIsAStar() {
    assertThat(OperationPattern.of("*")).isSameAs(OperationPattern.ANY);
    assertThat(OperationPattern.ANY.matches("anything")).isTrue();
    assertThat(OperationPattern.ANY.matches("")).isTrue();
    assertThat(OperationPattern.ANY.matches(null)).isFalse();
    assertThat(OperationPattern.of("get*").matches(null)).isFalse();
    assertThat(OperationPattern.of("get").matches(null)).isFalse();
  }

  @Test
  void shouldMatchLineBreaksWhenGlobHasStarOrQuestionMark() {
    // object keys are arbitrary bytes read as ISO-8859-1 text
    assertThat(OperationPattern.of("*bulk*").matches("\n\u0001bulk\n")).isTrue();
    assertThat(OperationPattern.of("a?b").matches("a\nb")).isTrue();
  }
}
