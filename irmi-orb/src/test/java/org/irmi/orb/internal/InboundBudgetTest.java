package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InboundBudgetTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void shouldDeriveTheDefaultFromTheMaxHeap() {
        assertThat(InboundBudget.defaultLimit(1024 * MIB)).isEqualTo(256 * MIB);
        assertThat(InboundBudget.defaultLimit(16 * MIB)).isEqualTo(8 * MIB);
        assertThat(InboundBudget.defaultLimit(Long.MAX_VALUE)).isEqualTo(1024 * MIB);
    }

    @Test
    void shouldPauseOnlyHoldersOfAShareAboveTheHighWaterMark() {
        InboundBudget b = new InboundBudget(32 * MIB); // high water 24 MiB, share 1 MiB
        assertThat(b.shareBytes()).isEqualTo(MIB);
        b.addPartial(24 * MIB);
        assertThat(b.shouldPause(10 * MIB)).isFalse(); // at, not above, the high water mark
        b.addQueued(1);
        assertThat(b.shouldPause(10 * MIB)).isTrue();
        assertThat(b.shouldPause(MIB - 1)).isFalse(); // a small request keeps being read
        assertThat(b.overLimit()).isFalse();
        b.addPartial(8 * MIB);
        assertThat(b.overLimit()).isTrue();
        b.addQueued(-1);
        assertThat(b.overLimit()).isFalse();
        assertThat(b.heldBytes()).isEqualTo(32 * MIB);
    }

    @Test
    void shouldResumeOnlyWhatFitsUnderTheHighWaterMark() {
        InboundBudget b = new InboundBudget(32 * MIB);
        b.addPartial(20 * MIB);
        assertThat(b.mayResume(4 * MIB)).isTrue();
        assertThat(b.mayResume(4 * MIB + 1)).isFalse();
        b.addPartial(-20 * MIB);
        assertThat(b.mayResume(24 * MIB)).isTrue();
    }
}
