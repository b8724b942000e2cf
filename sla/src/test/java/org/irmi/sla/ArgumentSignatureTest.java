package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ArgumentSignatureTest {

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void shouldAddTheNameWhenThePatternOccursInTheRange() {
    ArgumentSignature s = new ArgumentSignature("big", OperationPattern.of("buy"), 2, 6, Optional.of("text:BIG"));

    assertThat(s.suffix(bytes("xxxxBIG!"))).isEqualTo("#big");
  }

  @Test
  void shouldAddNothingWhenThePatternLiesOutsideTheRange() {
    ArgumentSignature s = new ArgumentSignature("big", OperationPattern.of("buy"), 2, 4, Optional.of("text:BIG"));

    assertThat(s.suffix(bytes("xxxxxBIG"))).isNull();
  }

  @Test
  void shouldAddTheRangeAsHexWhenThereIsNoPattern() {
    ArgumentSignature s = new ArgumentSignature("head", OperationPattern.of("raw"), 1, 2, Optional.empty());

    assertThat(s.suffix(new byte[] {0x00, (byte) 0xca, (byte) 0xfe, 0x01})).isEqualTo("#head=cafe");
  }

  @Test
  void shouldAddNothingWhenTheBodyIsShorterThanAPatternlessRange() {
    ArgumentSignature s = new ArgumentSignature("head", OperationPattern.of("raw"), 1, 4, Optional.empty());

    assertThat(s.suffix(new byte[] {0x00, 0x01, 0x02})).isNull();
    assertThat(s.suffix(null)).isNull();
  }

  @Test
  void shouldNeedOffsetPlusLengthBytes() {
    ArgumentSignature s = new ArgumentSignature("big", OperationPattern.of("buy"), 2, 6, Optional.of("hex:cafe"));

    assertThat(s.bytesNeeded()).isEqualTo(8);
  }

  @Test
  void shouldHandOutACopyOfThePatternBytes() {
    ArgumentSignature s = new ArgumentSignature("p", OperationPattern.of("buy"), 0, 2, Optional.of("hex:cafe"));

    s.patternBytes().orElseThrow()[0] = 0;

    assertThat(s.patternBytes()).hasValueSatisfying(b -> assertThat(b).containsExactly((byte) 0xca, (byte) 0xfe));
    assertThat(s.suffix(new byte[] {(byte) 0xca, (byte) 0xfe})).isEqualTo("#p");
  }

  @Test
  void shouldBeEqualWhenWrittenAlike() {
    ArgumentSignature a = new ArgumentSignature("s", OperationPattern.of("buy"), 0, 4, Optional.of("text:AB"));

    assertThat(a).isEqualTo(new ArgumentSignature("s", OperationPattern.of("buy"), 0, 4, Optional.of("text:AB")))
        .hasSameHashCodeAs(new ArgumentSignature("s", OperationPattern.of("buy"), 0, 4, Optional.of("text:AB")))
        .isNotEqualTo(new ArgumentSignature("s", OperationPattern.of("buy"), 1, 4, Optional.of("text:AB")));
  }
}
