package org.irmi.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GlobTest {
    @Test
    void shouldMatchStarsQuestionMarksAndClasses() {
        assertThat(Glob.of("get*").matches("getQuote")).isTrue();
        assertThat(Glob.of("get*").matches("buy")).isFalse();
        assertThat(Glob.of("report?").matches("report1")).isTrue();
        assertThat(Glob.of("Secondary[0-9]").matches("Secondary7")).isTrue();
        assertThat(Glob.of("Secondary[!0-9]").matches("Secondary7")).isFalse();
        assertThat(Glob.of("\\*literal").matches("*literal")).isTrue();
        assertThat(Glob.of("\\*literal").matches("xliteral")).isFalse();
        assertThat(Glob.of("a.b").matches("aXb")).isFalse();
        assertThat(Glob.ANY.matches("anything")).isTrue();
        assertThat(Glob.ANY.matches(null)).isFalse();
    }
}
