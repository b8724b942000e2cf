package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code echo_epoll_client} (C++, every connection on one epoll thread), run by {@link LoadRun} as the
 * benchmark runs it: against real echo servers in child JVMs its output parses as the other clients' does and
 * the figures add up; against a server that answers wrongly every wrong reply is an error, not a call.
 */
class EpollLoadClientTest {

    private static NativeClients clients;

    @BeforeAll
    static void build() {
        assertTrue(NativeClients.unavailableReason().isEmpty(),
                () -> "the C++ clients cannot be built: " + NativeClients.unavailableReason().orElse("")
                        + " (run scripts/prereqs.sh)");
        clients = NativeClients.build();
    }

    @Test
    void shouldReportEveryCallOfEveryConnectionWhenServerIsIrmi(@TempDir Path dir) throws Exception {
        assertCleanRun("irmi", dir);
    }

    @Test
    void shouldReportEveryCallOfEveryConnectionWhenServerIsStockJacorb(@TempDir Path dir) throws Exception {
        assertCleanRun("jacorb", dir);
    }

    private static void assertCleanRun(String variant, Path dir) throws Exception {
        ServerProcess s = ServerProcess.start(variant, variant, dir, Duration.ofSeconds(60));
        try {
            LoadRun.Trial t = LoadRun.run(List.of(clients.epollClient().toString()), s.iorFile(), s.pid(),
                    s.ior().port(), null, 8, 100, Duration.ofMillis(300), Duration.ofMillis(700), List.of());

            CleanTrial.check(t, 8, 100);
        } finally {
            s.close();
        }
    }

    @Test
    void shouldCountEveryReplyWithOtherOctetsAsErrorAndNoneAsCall(@TempDir Path dir) throws Exception {
        LoadResult r = againstFake(FakeGiopEchoServer.Answer.WRONG_OCTETS, dir);

        assertThat(r.connected()).as("a wrong reply closes its connection").isZero();
        assertThat(r.calls()).isZero();
        assertThat(r.histogram().getTotalCount()).isZero();
        assertThat(r.errorsAll()).as("the ramp's 4 calls").isEqualTo(4);
    }

    @Test
    void shouldCountEveryReplyToAnotherRequestIdAsError(@TempDir Path dir) throws Exception {
        LoadResult r = againstFake(FakeGiopEchoServer.Answer.WRONG_ID, dir);

        assertThat(r.calls()).isZero();
        assertThat(r.errorsAll()).isEqualTo(4);
    }

    @Test
    void shouldCountSystemExceptionRepliesAsErrors(@TempDir Path dir) throws Exception {
        LoadResult r = againstFake(FakeGiopEchoServer.Answer.SYSTEM_EXCEPTION, dir);

        assertThat(r.calls()).isZero();
        assertThat(r.errorsAll()).isEqualTo(4);
    }

    @Test
    void shouldCountRightRepliesAsCallsWhenFakeServerAnswersRight(@TempDir Path dir) throws Exception {
        LoadResult r = againstFake(FakeGiopEchoServer.Answer.RIGHT, dir);

        assertThat(r.connected()).isEqualTo(4);
        assertThat(r.errorsAll()).isZero();
        assertThat(r.calls()).isPositive().isEqualTo(r.histogram().getTotalCount());
    }

    @Test
    void shouldFailWithItsOutputWhenIorFileIsMissing(@TempDir Path dir) {
        assertThatThrownBy(() -> LoadRun.run(List.of(clients.epollClient().toString()), dir.resolve("none.ior"), -1,
                1, null, 1, 100, Duration.ZERO, Duration.ofMillis(100), List.of()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot read an IOR");
    }

    private static LoadResult againstFake(FakeGiopEchoServer.Answer answer, Path dir) throws Exception {
        try (FakeGiopEchoServer f = new FakeGiopEchoServer(answer)) {
            Path ior = Files.writeString(dir.resolve("fake.ior"), f.ior().stringified());
            return LoadRun.run(List.of(clients.epollClient().toString()), ior, -1, f.ior().port(), null, 4, 100,
                    Duration.ofMillis(100), Duration.ofMillis(300), List.of()).result();
        }
    }
}
