package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.irmi.sla.CrosstalkConfig;
import org.junit.jupiter.api.Test;

class ReadBudgetAllocatorTest {
    private final CrosstalkConfig config = CrosstalkConfig.custom().baseReadBudgetBytes(70 * 1024)
            .minReadBudgetBytes(1024).maxReadBudgetBytes(1 << 24)
            .minReceiveBufferBytes(8 * 1024).maxReceiveBufferBytes(1 << 20).build();

    @Test
    void shouldSplitTurnByWeightWhenThreeStreamsAreActive() {
        var b = ReadBudgetAllocator.allocate(List.of(new ReadBudgetAllocator.Stream(1, 1),
                new ReadBudgetAllocator.Stream(2, 2), new ReadBudgetAllocator.Stream(3, 4)), config);
        // turn = 3 * 70 KiB = 210 KiB; shares 1/7, 2/7, 4/7
        assertThat(b).extracting(ReadBudgetAllocator.Budget::readBudgetBytes)
                .containsExactly(30 * 1024, 60 * 1024, 120 * 1024);
        // buffers: the heaviest gets the largest (1 MiB), the others in proportion to their weight
        assertThat(b).extracting(ReadBudgetAllocator.Budget::receiveBufferBytes)
                .containsExactly(256 * 1024, 512 * 1024, 1 << 20);
    }

    @Test
    void shouldGiveALoneStreamTheLargestReceiveBufferWhateverItsWeight() {
        var b = ReadBudgetAllocator.allocate(List.of(new ReadBudgetAllocator.Stream(1, 0.5)), config);

        assertThat(b.get(0).receiveBufferBytes()).isEqualTo(1 << 20);
    }

    @Test
    void shouldGiveEachTheBaseBudgetWhenWeightsAreEqual() {
        var b = ReadBudgetAllocator.allocate(List.of(new ReadBudgetAllocator.Stream(1, 3),
                new ReadBudgetAllocator.Stream(2, 3)), config);
        assertThat(b).extracting(ReadBudgetAllocator.Budget::readBudgetBytes)
                .containsExactly(70 * 1024, 70 * 1024);
    }

    @Test
    void shouldFollowTheNumberOfActiveStreamsWhenOneLeaves() {
        var three = ReadBudgetAllocator.allocate(List.of(new ReadBudgetAllocator.Stream(1, 1),
                new ReadBudgetAllocator.Stream(2, 1), new ReadBudgetAllocator.Stream(3, 2)), config);
        var two = ReadBudgetAllocator.allocate(List.of(new ReadBudgetAllocator.Stream(1, 1),
                new ReadBudgetAllocator.Stream(3, 2)), config);
        assertThat(three.get(2).readBudgetBytes()).isEqualTo(105 * 1024); // 210K * 2/4
        assertThat(two.get(1).readBudgetBytes()).isEqualTo(95_573);       // 140 KiB * 2/3, rounded
    }

    @Test
    void shouldClampBudgetsAndBuffersToTheirBounds() {
        CrosstalkConfig tight = CrosstalkConfig.custom().baseReadBudgetBytes(8 * 1024)
                .minReadBudgetBytes(4 * 1024).maxReadBudgetBytes(10 * 1024)
                .minReceiveBufferBytes(6 * 1024).maxReceiveBufferBytes(9 * 1024).build();
        var b = ReadBudgetAllocator.allocate(List.of(new ReadBudgetAllocator.Stream(1, 1),
                new ReadBudgetAllocator.Stream(2, 100)), tight);
        assertThat(b.get(0).readBudgetBytes()).isEqualTo(4 * 1024);
        assertThat(b.get(0).receiveBufferBytes()).isEqualTo(6 * 1024);
        assertThat(b.get(1).readBudgetBytes()).isEqualTo(10 * 1024);
        assertThat(b.get(1).receiveBufferBytes()).isEqualTo(9 * 1024);
    }

    @Test
    void shouldReturnNothingWhenNoStreamIsActive() {
        assertThat(ReadBudgetAllocator.allocate(List.of(), config)).isEmpty();
    }
}
