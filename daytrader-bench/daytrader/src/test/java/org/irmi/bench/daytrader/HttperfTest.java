package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HttperfTest {
    /** A real httperf 0.9.0 report (4 sessions of 30 scenario requests against our web tier). */
    static final String OUTPUT = """
            httperf --timeout=10 --client=0/1 --server=127.0.0.1 --port=39415 --uri=/daytrader/scenario --rate=100 --send-buffer=4096 --recv-buffer=16384 --session-cookies --wsess=4,30,0.100
            Maximum connect burst length: 3

            Total: connections 4 requests 120 replies 118 test-duration 4.859 s

            Connection rate: 0.8 conn/s (1214.6 ms/conn, <=4 concurrent connections)
            Connection time [ms]: min 4583.3 avg 4656.6 max 4829.6 median 4585.5 stddev 117.2
            Connection time [ms]: connect 7.3
            Connection length [replies/conn]: 30.000

            Request rate: 24.7 req/s (40.5 ms/req)
            Request size [B]: 122.0

            Reply rate [replies/s]: min 1.0 avg 2.5 max 4.0 stddev 0.5 (3 samples)
            Reply time [ms]: response 44.9 transfer 0.1
            Reply size [B]: header 144.0 content 1575.0 footer 0.0 (total 1719.0)
            Reply status: 1xx=0 2xx=110 3xx=1 4xx=2 5xx=5

            CPU time [s]: user 0.19 system 1.00 (user 4.0% system 20.7% total 24.7%)
            Net I/O: 44.5 KB/s (0.4*10^6 bps)

            Errors: total 9 client-timo 1 socket-timo 2 connrefused 3 connreset 3
            Errors: fd-unavail 0 addrunavail 0 ftab-full 0 other 0

            Session rate [sess/s]: min 0.00 avg 0.82 max 0.00 stddev 0.00 (3/4)
            Session: avg 1.00 connections/session
            """;

    @Test
    void shouldParseEveryListedLine() {
        HttperfResult r = Httperf.parse("cmd", OUTPUT);
        assertThat(r.connections()).isEqualTo(4);
        assertThat(r.requests()).isEqualTo(120);
        assertThat(r.replies()).isEqualTo(118);
        assertThat(r.testDurationSeconds()).isEqualTo(4.859);
        assertThat(r.connectionRatePerSecond()).isEqualTo(0.8);
        assertThat(r.msPerConnection()).isEqualTo(1214.6);
        assertThat(r.maxConcurrentConnections()).isEqualTo(4);
        assertThat(r.requestRatePerSecond()).isEqualTo(24.7);
        assertThat(r.msPerRequest()).isEqualTo(40.5);
        assertThat(r.replyRateMin()).isEqualTo(1.0);
        assertThat(r.replyRateAvg()).isEqualTo(2.5);
        assertThat(r.replyRateMax()).isEqualTo(4.0);
        assertThat(r.replyRateStddev()).isEqualTo(0.5);
        assertThat(r.replyRateSamples()).isEqualTo(3);
        assertThat(r.replyTimeResponseMs()).isEqualTo(44.9);
        assertThat(r.replyTimeTransferMs()).isEqualTo(0.1);
        assertThat(new long[] {r.status1xx(), r.status2xx(), r.status3xx(), r.status4xx(), r.status5xx()})
                .containsExactly(0, 110, 1, 2, 5);
        assertThat(new long[] {r.errorsTotal(), r.clientTimeouts(), r.socketTimeouts(), r.connectionsRefused(),
                r.connectionsReset()}).containsExactly(9, 1, 2, 3, 3);
        assertThat(new long[] {r.fdUnavailable(), r.addrUnavailable(), r.ftabFull(), r.errorsOther()}).containsExactly(0, 0, 0, 0);
        assertThat(r.sessionRateAvg()).isEqualTo(0.82);
        assertThat(r.sessionsCompleted()).isEqualTo(3);
        assertThat(r.sessionsStarted()).isEqualTo(4);
        assertThat(r.isValid()).isTrue();
        assertThat(r.replyThroughputPerSecond()).isCloseTo(118 / 4.859, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void shouldMarkARunWithDescriptorErrorsInvalid() {
        HttperfResult r = Httperf.parse("cmd", OUTPUT.replace("fd-unavail 0 addrunavail 0 ftab-full 0",
                "fd-unavail 2 addrunavail 0 ftab-full 0"));
        assertThat(r.isValid()).isFalse();
        assertThat(r.invalidReason()).contains("fd-unavail 2");
    }

    @Test
    void shouldMarkARunWithPortExhaustionInvalid() {
        assertThat(Httperf.parse("cmd", OUTPUT.replace("addrunavail 0", "addrunavail 7")).isValid()).isFalse();
        assertThat(Httperf.parse("cmd", OUTPUT.replace("ftab-full 0", "ftab-full 1")).isValid()).isFalse();
    }

    @Test
    void shouldNameTheMissingLineWhenTheReportIsIncomplete() {
        assertThatThrownBy(() -> Httperf.parse("cmd", OUTPUT.replaceAll("(?m)^Reply status.*$", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'Reply status'");
    }

    @Test
    void shouldLeaveSessionFiguresNegativeWithoutSessions() {
        HttperfResult r = Httperf.parse("cmd", OUTPUT.replaceAll("(?m)^Session rate.*$", ""));
        assertThat(r.sessionsStarted()).isEqualTo(-1);
    }

    private static final String TOKEN = "0123456789abcdef".repeat(4);

    @Test
    void shouldBuildThePapersLoadAsTheOperatorsPosts() {
        assertThat(Httperf.paperLoad("127.0.0.1", 8080, 11, TOKEN).arguments()).contains("--server=127.0.0.1", "--port=8080",
                "--uri=/daytrader/scenario", "--method=POST", "--wsess=4,100,0.1", "--session-cookie",
                "--add-header=Authorization: Bearer " + TOKEN + "\\n");
    }

    @Test
    void shouldBuildASaturatingLoadWithoutThinkTime() {
        assertThat(Httperf.saturation("127.0.0.1", 8080, 32, 500, TOKEN).arguments()).contains("--wsess=32,500,0",
                "--method=POST");
    }

    @Test
    void shouldMaskTheOperatorsTokenWhenTheCommandLineIsPrinted() {
        HttperfWorkload w = Httperf.paperLoad("127.0.0.1", 8080, 11, TOKEN);

        assertThat(w.commandLine()).doesNotContain(TOKEN).contains("Authorization: Bearer ***");
        assertThat(w.toString()).doesNotContain(TOKEN);
        assertThat(w.mask("x " + TOKEN + " y")).isEqualTo("x *** y");
    }

    @Test
    void shouldPrintACommandThatReadsTheTokenFromItsFileWhenDayTraderStarts() {
        String line = DayTraderMain.unmaskedFromFile(Httperf.paperLoad("127.0.0.1", 8080, 11, TOKEN),
                "\"$(cat /run/operator.token)\"");

        assertThat(line).doesNotContain(TOKEN).startsWith("httperf --server=127.0.0.1 ")
                .contains("'--add-header=Authorization: Bearer '\"$(cat /run/operator.token)\"'\\n'");
    }

    @Test
    void shouldRefuseAnOperatorTokenThatIsNotOne() {
        assertThatThrownBy(() -> HttperfWorkload.builder("h", 1).operatorToken("secret\\nX-Evil: 1"))
                .hasMessageContaining("64 hex digits");
    }

    @Test
    void shouldReplayASessionLogWithFormsPostedFromThisOriginWhenSessionLogWorkloadBuilt() {
        HttperfWorkload w = Httperf.sessionLog("127.0.0.1", 8080, 4, 0.1, java.nio.file.Path.of("/tmp/s.txt")).build();

        assertThat(w.arguments()).contains("--wsesslog=4,0.1,/tmp/s.txt", "--session-cookie", "--server-name=127.0.0.1:8080",
                "--add-header=Origin: http://127.0.0.1:8080\\nContent-Type: application/x-www-form-urlencoded\\n");
        assertThat(w.cpuPrefix()).isEmpty();
    }

    @Test
    void shouldRunUnderTasksetWhenPinned() {
        HttperfWorkload w = HttperfWorkload.builder("h", 1).cpus("0").build();

        assertThat(w.cpuPrefix()).containsExactly("taskset", "-c", "0");
        assertThatThrownBy(() -> HttperfWorkload.builder("h", 1).cpus("zero")).hasMessageContaining("cpus");
    }

    @Test
    void shouldRejectAMalformedPeriod() {
        assertThatThrownBy(() -> HttperfWorkload.builder("h", 1).period("x1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period");
    }
}
