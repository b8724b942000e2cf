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
        assertThat(r.lastProgressNanos).isEqualTo(5);
    }
}
