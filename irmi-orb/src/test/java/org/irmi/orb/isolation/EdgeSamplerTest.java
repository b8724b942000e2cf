package org.irmi.orb.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;

import org.irmi.monitors.EdgeSample;
import org.irmi.monitors.ManualClock;
import org.irmi.monitors.ResourceProbe;
import org.junit.jupiter.api.Test;

class EdgeSamplerTest {

    private final ManualClock clock = new ManualClock();
    private long cpuNanos;
    private long gcNanos;
    private long machineNanos;
    private long compilerNanos;
    private final ResourceProbe probe = new ResourceProbe() {
        @Override public long processCpuNanos() { return cpuNanos; }
        @Override public long gcTimeNanos() { return gcNanos; }
        @Override public long machineCpuNanos() { return machineNanos; }
        @Override public long compilerCpuNanos() { return compilerNanos; }
        @Override public double systemLoadAverage() { return 0; }
        @Override public long heapUsedBytes() { return 0; }
        @Override public long heapMaxBytes() { return 1; }
        @Override public int liveThreads() { return 1; }
        @Override public int availableProcessors() { return 2; }
    };

    @Test
    void shouldMeasureEveryFigureOverTheSameIntervalWhenSampled() {
        EdgeSampler sampler = new EdgeSampler(clock, probe);
        for (int i = 0; i < 50; i++) {
            sampler.onCompletion(40_000);
        }
        clock.advance(Duration.ofMillis(500));
        cpuNanos += 100_000_000L;     // 0.2 cores
        gcNanos += 10_000_000L;       // 2 % of the interval
        machineNanos += 1_100_000_000L; // 2.2 cores in all: 2.0 of them other processes'

        EdgeSample s = sampler.sample();

        assertThat(s.throughputPerSecond()).isCloseTo(100.0, within(1e-9));
        assertThat(s.allocatedBytesPerSecond()).isCloseTo(4e6, within(1e-3));
        assertThat(s.cpuCores()).isCloseTo(0.2, within(1e-9));
        assertThat(s.gcTimeFraction()).isCloseTo(0.02, within(1e-9));
        assertThat(s.othersCores()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void shouldCountOnlyTheLastIntervalWhenSampledAgain() {
        EdgeSampler sampler = new EdgeSampler(clock, probe);
        clock.advance(Duration.ofMillis(500));
        cpuNanos += 400_000_000L; // a heavy request in the first interval
        machineNanos += 400_000_000L;
        sampler.sample();
        clock.advance(Duration.ofMillis(500));
        cpuNanos += 25_000_000L;
        machineNanos += 25_000_000L;

        EdgeSample s = sampler.sample();

        assertThat(s.cpuCores()).isCloseTo(0.05, within(1e-9));
        assertThat(s.othersCores()).isZero();
    }

    @Test
    void shouldCountTheJitCompilerWithTheOthersWhenItCompiled() {
        EdgeSampler sampler = new EdgeSampler(clock, probe);
        clock.advance(Duration.ofMillis(500));
        cpuNanos += 100_000_000L;     // 0.2 cores in the process ...
        compilerNanos += 60_000_000L; // ... 0.12 of them compiling
        machineNanos += 100_000_000L; // nothing else ran

        EdgeSample s = sampler.sample();

        assertThat(s.cpuCores()).isCloseTo(0.08, within(1e-9));
        assertThat(s.othersCores()).isCloseTo(0.12, within(1e-9));
    }

    @Test
    void shouldCountTheWholeProcessWhenTheCompilerCpuIsUnknown() {
        compilerNanos = -1;
        EdgeSampler sampler = new EdgeSampler(clock, probe);
        clock.advance(Duration.ofMillis(500));
        cpuNanos += 100_000_000L;
        machineNanos += 100_000_000L;

        assertThat(sampler.sample().cpuCores()).isCloseTo(0.2, within(1e-9));
    }

    @Test
    void shouldLeaveTheOtherProcessesUnknownWhenTheMachineCpuCannotBeRead() {
        machineNanos = -1;
        EdgeSampler sampler = new EdgeSampler(clock, probe);
        clock.advance(Duration.ofMillis(500));

        assertThat(sampler.sample().othersCores()).isNaN();
    }
}
