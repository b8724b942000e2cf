package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class MessageBufferTest {

    private static byte[] header(int body) {
        byte[] h = {'G', 'I', 'O', 'P', 1, 2, 0, 0, 0, 0, 0, 0};
        Giop.writeInt(h, 8, body, false);
        return h;
    }

    @Test
    void shouldHoldOnlyTheFirstChunkWhenAHugeDeclaredBodySendsOneByte() {
        int declared = 64 * 1024 * 1024 - 100;
        MessageBuffer b = new MessageBuffer(header(declared), 12 + declared);
        assertThat(b.read(ByteBuffer.wrap(new byte[] {42}))).isEqualTo(1);
        assertThat(b.complete()).isFalse();
        assertThat(b.heldBytes()).isEqualTo(MessageBuffer.FIRST_CHUNK_BYTES);
        assertThat(b.remainingBytes()).isEqualTo(declared - 1);
    }

    @Test
    void shouldNeverHoldMoreThanTwiceWhatArrivedPlusTheFirstChunk() {
        int body = 10 * 1024 * 1024 + 7;
        byte[] m = new byte[12 + body];
        System.arraycopy(header(body), 0, m, 0, 12);
        for (int i = 12; i < m.length; i++) {
            m[i] = (byte) (i * 31);
        }
        MessageBuffer b = new MessageBuffer(header(body), m.length);
        int at = 12;
        int step = 3001;
        while (!b.complete()) {
            int n = Math.min(step, m.length - at);
            assertThat(b.read(ByteBuffer.wrap(m, at, n))).isEqualTo(n);
            at += n;
            assertThat(b.heldBytes()).isLessThanOrEqualTo(2L * b.receivedBytes() + MessageBuffer.FIRST_CHUNK_BYTES);
        }
        assertThat(b.toMessage()).isEqualTo(m);
        assertThat(b.growthBytes()).isZero();
    }

    @Test
    void shouldHandAnExactArrayWithoutCopyWhenTheMessageIsSmall() {
        byte[] m = new byte[12 + 100];
        System.arraycopy(header(100), 0, m, 0, 12);
        m[50] = 9;
        MessageBuffer b = new MessageBuffer(header(100), m.length);
        ByteBuffer in = ByteBuffer.allocate(200);
        in.put(m, 12, 100).put(new byte[] {1, 2, 3}).flip();
        assertThat(b.read(in)).isEqualTo(100);
        assertThat(in.remaining()).isEqualTo(3); // the next message's bytes are left
        assertThat(b.complete()).isTrue();
        assertThat(b.toMessage()).isEqualTo(m).hasSize(112);
        assertThat(b.heldBytes()).isEqualTo(112);
    }
}
