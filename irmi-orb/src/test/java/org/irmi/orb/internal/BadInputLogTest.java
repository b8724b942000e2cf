package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class BadInputLogTest {

    @Test
    void shouldWriteOneLinePerIntervalAndCountTheRest() {
        AtomicLong now = new AtomicLong(1_000);
        BadInputLog log = new BadInputLog(LoggerFactory.getLogger(BadInputLogTest.class), now::get, 100);
        assertThat(log.note("bad input {}", new IllegalStateException("no stack trace"))).isTrue();
        for (int i = 0; i < 50; i++) {
            assertThat(log.note("bad input {}", i)).isFalse();
        }
        assertThat(log.suppressed()).isEqualTo(50);
        now.addAndGet(99);
        assertThat(log.note("bad input {}", "x")).isFalse();
        now.addAndGet(1);
        assertThat(log.note("bad input {}", "y")).isTrue();
        assertThat(log.suppressed()).isZero();
    }
}
