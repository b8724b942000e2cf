package org.irmi.sla.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestTest {

  @Test
  void shouldSuggestClosestKeyWhenMisspelt() {
    assertThat(Suggest.closest("treshold", List.of("threshold", "coolDown"))).contains("threshold");
    assertThat(Suggest.closest("cooldown", List.of("threshold", "coolDown"))).contains("coolDown");
  }

  @Test
  void shouldCountATranspositionAsOneEditWhenLettersAreSwapped() {
    assertThat(Suggest.distance("servcie", "service")).isEqualTo(1);
  }

  @Test
  void shouldSuggestNothingWhenNoKeyIsClose() {
    assertThat(Suggest.closest("weight", List.of("coolDown", "minEpisode"))).isEmpty();
  }
}
