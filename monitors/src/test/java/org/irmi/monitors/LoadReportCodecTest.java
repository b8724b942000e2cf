package org.irmi.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class LoadReportCodecTest {

    private final LoadReport report = new LoadReport(875, 420, 70_000, 15, 300, true, false);

    @Test
    void shouldWriteTheDocumentedBytesWhenEncoding() {
        assertThat(LoadReportCodec.encode(report)).containsExactly(
                0x01, 0x01, 0x03, 0x6B, 0x01, 0xA4, 0x00, 0x01, 0x11, 0x70, 0x00, 0x0F, 0x01, 0x2C);
    }

    @Test
    void shouldRoundTripWhenEveryFieldIsAtItsBounds() {
        for (LoadReport r : new LoadReport[] {report, new LoadReport(0, 0, 0, 0, 0, false, false),
                new LoadReport(1000, 1000, Integer.MAX_VALUE, 1000, 65_535, true, true)}) {
            assertThat(LoadReportCodec.decode(LoadReportCodec.encode(r))).isEqualTo(r);
        }
    }

    @Test
    void shouldIgnoreAppendedBytesWhenAWriterExtendsVersionOne() {
        byte[] longer = Arrays.copyOf(LoadReportCodec.encode(report), 20);
        assertThat(LoadReportCodec.decode(longer)).isEqualTo(report);
    }

    @Test
    void shouldSayHowManyBytesAreMissingWhenTruncated() {
        byte[] cut = Arrays.copyOf(LoadReportCodec.encode(report), 9);
        assertThatThrownBy(() -> LoadReportCodec.decode(cut)).isInstanceOf(MalformedLoadReportException.class)
                .hasMessage("load report: truncated, 9 bytes; version 1 needs 14");
        assertThatThrownBy(() -> LoadReportCodec.decode(new byte[0])).hasMessageContaining("empty (0 bytes)");
        assertThatThrownBy(() -> LoadReportCodec.decode(null)).hasMessage("load report: no data");
    }

    @Test
    void shouldRejectWhenVersionIsUnknown() {
        byte[] b = LoadReportCodec.encode(report);
        b[0] = 2;
        assertThatThrownBy(() -> LoadReportCodec.decode(b)).hasMessage("load report: unsupported version 2 at offset 0; this decoder reads version 1");
    }

    @Test
    void shouldNameFieldAndOffsetWhenValueOutOfRange() {
        byte[] b = LoadReportCodec.encode(report);
        b[4] = 0x03;
        b[5] = (byte) 0xE9; // 1001
        assertThatThrownBy(() -> LoadReportCodec.decode(b)).hasMessage("load report: heapPermille 1001 at offset 4 exceeds 1000");
        byte[] q = LoadReportCodec.encode(report);
        q[6] = (byte) 0x80;
        assertThatThrownBy(() -> LoadReportCodec.decode(q)).hasMessageContaining("queueLength 2147553648 at offset 6 exceeds 2147483647");
    }

    @Test
    void shouldRejectWhenLongerThanTheMaximum() {
        byte[] huge = Arrays.copyOf(LoadReportCodec.encode(report), LoadReportCodec.MAX_LENGTH + 1);
        assertThatThrownBy(() -> LoadReportCodec.decode(huge)).hasMessage("load report: 257 bytes, more than the maximum 256");
    }

    @Test
    void shouldReturnEmptyInsteadOfThrowingWhenTryDecodingBadData() {
        assertThat(LoadReportCodec.tryDecode(null)).isEmpty();
        assertThat(LoadReportCodec.tryDecode(new byte[] {1, 2, 3})).isEmpty();
        assertThat(LoadReportCodec.tryDecode(LoadReportCodec.encode(report))).contains(report);
    }

    @Test
    void shouldNameTheFieldWhenAReportIsBuiltOutOfRange() {
        assertThatThrownBy(() -> new LoadReport(1001, 0, 0, 0, 0, false, false))
                .hasMessage("cpuPermille must be between 0 and 1000 (permille), was 1001");
        assertThatThrownBy(() -> new LoadReport(0, 0, -1, 0, 0, false, false)).hasMessage("queueLength must be >= 0, was -1");
    }

    @Test
    void shouldClampIntoFieldsWhenBuiltFromALocalSnapshot() {
        LocalResourceSnapshot s = new LocalResourceSnapshot(3.0, 1.5, 2.0, 10, 5, 0.0125, 2.5, 900, 1_000, 300, 20, 12);
        LoadReport r = LoadReport.from(s, false, true);
        assertThat(r).isEqualTo(new LoadReport(1000, 900, 12, 13, 150, false, true));
    }
}
