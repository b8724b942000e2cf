package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LoadResultTest {

    private static final String OUTPUT = """
            some omniORB noise
            ECHO-LOAD connections=16 connected=16 payload=100 seconds=2.000 calls=1000 errors=1 mismatches=0 \
            calls_per_sec=500.0 p50_us=1.0 p90_us=1.0 p99_us=1.0 p999_us=1.0 max_us=1.0 ramp_ms=12
            ECHO-HIST 1000:500,2000:490,50000:10
            """;

    @Test
    void shouldComputeCallsPerSecondFromCallsAndSecondsWhenLineIsComplete() {
        LoadResult r = LoadResult.parse(OUTPUT);

        assertThat(r.callsPerSecond()).isEqualTo(500.0);
        assertThat(r.connected()).isEqualTo(16);
        assertThat(r.errors()).isEqualTo(1);
        assertThat(r.rampMillis()).isEqualTo(12);
    }

    @Test
    void shouldTakePercentilesFromHistogramBucketsWhenHistLineIsPresent() {
        LoadResult r = LoadResult.parse(OUTPUT);

        assertThat(r.histogram().getTotalCount()).isEqualTo(1000);
        assertThat(r.p50Micros()).isCloseTo(1.0, within(0.01));
        assertThat(r.p99Micros()).isCloseTo(2.0, within(0.01));
        assertThat(r.maxMicros()).isCloseTo(50.0, within(0.1));
    }

    @Test
    void shouldShowOutputWhenLoadLineIsMissing() {
        assertThatThrownBy(() -> LoadResult.parse("echo_load_client: cannot reach the server: TRANSIENT"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot reach the server");
    }
}
