package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StreamWeightTest {

  @Test
  void shouldMatchLiteralAddressesInsideTheBlockWhenKindIsClient() {
    StreamWeight w = new StreamWeight(StreamWeight.Kind.CLIENT, "10.1.0.0/16", 4);

    assertThat(w.matches("10.1.200.3")).isTrue();
    assertThat(w.matches("10.2.0.1")).isFalse();
  }

  @Test
  void shouldNotMatchWhenAClientValueIsAHostName() {
    StreamWeight w = new StreamWeight(StreamWeight.Kind.CLIENT, "0.0.0.0/0", 4);

    assertThat(w.matches("localhost")).isFalse();
    assertThat(w.matches("")).isFalse();
  }

  @Test
  void shouldMatchTheGlobWhenKindIsObjectKey() {
    StreamWeight w = new StreamWeight(StreamWeight.Kind.OBJECT_KEY, "*bulk*", 2);

    assertThat(w.matches("POA/bulk-1")).isTrue();
    assertThat(w.matches("POA/small")).isFalse();
  }

  @Test
  void shouldMatchOnlyTheExactTagWhenKindIsTag() {
    StreamWeight w = new StreamWeight(StreamWeight.Kind.TAG, "gold", 8);

    assertThat(w.matches("gold")).isTrue();
    assertThat(w.matches("gold2")).isFalse();
  }

  @Test
  void shouldNeverMatchWhenTheComparedValueIsNull() {
    assertThat(new StreamWeight(StreamWeight.Kind.TAG, "gold", 8).matches(null)).isFalse();
    assertThat(new StreamWeight(StreamWeight.Kind.OBJECT_KEY, "*", 8).matches(null)).isFalse();
    assertThat(new StreamWeight(StreamWeight.Kind.CLIENT, "0.0.0.0/0", 8).matches(null)).isFalse();
  }

  @Test
  void shouldBeEqualWhenWrittenAlike() {
    StreamWeight a = new StreamWeight(StreamWeight.Kind.TAG, "a:b", 999.5);

    assertThat(a).isEqualTo(new StreamWeight(StreamWeight.Kind.TAG, "a:b", 999.5))
        .hasSameHashCodeAs(new StreamWeight(StreamWeight.Kind.TAG, "a:b", 999.5))
        .isNotEqualTo(new StreamWeight(StreamWeight.Kind.TAG, "a:b", 2));
  }

  @Test
  void shouldRefuseTheWeightWhenItIsZero() {
    assertThatThrownBy(() -> new StreamWeight(StreamWeight.Kind.TAG, "gold", 0))
        .isInstanceOf(SlaConfigException.class).hasMessageContaining("weight");
  }
}
