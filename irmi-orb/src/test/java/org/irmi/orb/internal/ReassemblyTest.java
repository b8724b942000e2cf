package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReassemblyTest {

    @Test
    void shouldJoinBodiesClearFlagAndSetTotalSize() {
        byte[] first = {'G', 'I', 'O', 'P', 1, 2, 3, 0, 0, 0, 0, 2, 10, 11};
        Reassembly r = new Reassembly(first, 0);
        r.append(new byte[] {0, 0, 0, 0, 12, 13, 14}, 4, 3, 5);
        byte[] m = r.finish();
        assertThat(m).hasSize(17);
        assertThat(m[6] & 2).isZero();
        assertThat(m[6] & 1).isEqualTo(1);
        assertThat(Giop.bodySize(m)).isEqualTo(5);
        assertThat(m).endsWith(10, 11, 12, 13, 14);
        assertThat(r.progress.sinceNanos()).isZero(); // three bytes are no real progress (ProgressClock)
    }

    @Test
    void shouldKeepEveryByteInOrderWhenLargeAndSmallBodiesMix() {
        byte[] first = {'G', 'I', 'O', 'P', 1, 2, 2, 0, 0, 0, 0, 4, 0, 0, 0, 7};
        Reassembly r = new Reassembly(first, 0);
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        expected.write(first, 0, first.length);
        int[] sizes = {8192, 3, 0, 100, Reassembly.SMALL_BODY_BYTES, 4000, 1, 9000};
        for (int k = 0; k < sizes.length; k++) {
            byte[] fragment = new byte[16 + sizes[k]];
            for (int i = 16; i < fragment.length; i++) {
                fragment[i] = (byte) (i * 7 + k);
            }
            r.append(fragment, 16, sizes[k], k);
            expected.write(fragment, 16, sizes[k]);
        }
        byte[] m = r.finish();
        assertThat(m).isEqualTo(patched(expected.toByteArray()));
    }

    @Test
    void shouldHoldFewPiecesWhenFragmentsAreTiny() {
        byte[] first = {'G', 'I', 'O', 'P', 1, 2, 2, 0, 0, 0, 0, 4, 0, 0, 0, 7};
        Reassembly r = new Reassembly(first, 0);
        byte[] fragment = new byte[17];
        for (int k = 0; k < 100_000; k++) {
            r.append(fragment, 16, 1, k);
        }
        assertThat(r.length()).isEqualTo(16 + 100_000);
        assertThat(r.pieces()).isLessThanOrEqualTo(1 + 100_000 / Reassembly.SMALL_BODY_BYTES + 1);
    }

    private static byte[] patched(byte[] m) {
        m[6] = (byte) (m[6] & ~2);
        Giop.writeInt(m, 8, m.length - Giop.HEADER_BYTES, false);
        return m;
    }
}
