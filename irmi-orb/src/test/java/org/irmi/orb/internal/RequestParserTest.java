package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class RequestParserTest {

    /** Big-endian CDR with alignment relative to the message start. */
    private static final class W {
        final ByteArrayOutputStream b = new ByteArrayOutputStream();

        W header(int type, int minor) {
            raw('G', 'I', 'O', 'P', 1, minor, 0, type, 0, 0, 0, 0);
            return this;
        }

        W raw(int... bytes) {
            for (int x : bytes) {
                b.write(x);
            }
            return this;
        }

        W align(int n) {
            while (b.size() % n != 0) {
                b.write(0);
            }
            return this;
        }

        W ulong(long v) {
            align(4);
            return raw((int) (v >>> 24), (int) (v >>> 16), (int) (v >>> 8), (int) v);
        }

        W ushort(int v) {
            align(2);
            return raw(v >>> 8, v);
        }

        W octets(byte[] v) {
            ulong(v.length);
            b.write(v, 0, v.length);
            return this;
        }

        W string(String s) {
            byte[] v = s.getBytes(StandardCharsets.ISO_8859_1);
            ulong(v.length + 1);
            b.write(v, 0, v.length);
            return raw(0);
        }

        byte[] done() {
            byte[] m = b.toByteArray();
            Giop.writeInt(m, 8, m.length - 12, false);
            return m;
        }
    }

    @Test
    void shouldReadGiop12RequestHeaderAndAlignBodyToEight() {
        byte[] m = new W().header(0, 2).ulong(77).raw(3, 0, 0, 0).ushort(0).octets(new byte[] {1, 2, 3})
                .string("op").ulong(1).ulong(0x4952).octets(new byte[] {9}).align(8).string("arg").done();
        RequestParser.Parsed p = RequestParser.parse(m);
        assertThat(p.requestId()).isEqualTo(77);
        assertThat(p.responseExpected()).isTrue();
        assertThat(p.objectKey()).containsExactly(1, 2, 3);
        assertThat(p.operation()).isEqualTo("op");
        assertThat(p.serviceContexts()).containsOnlyKeys(0x4952);
        assertThat(p.bodyOffset() % 8).isZero();
        assertThat(Giop.readUInt(m, p.bodyOffset(), false)).isEqualTo(4);
    }

    @Test
    void shouldReadGiop10RequestHeaderWhenContextsComeFirst() {
        byte[] m = new W().header(0, 0).ulong(0).ulong(5).raw(0).octets(new byte[] {7}).string("ping")
                .octets(new byte[0]).done();
        RequestParser.Parsed p = RequestParser.parse(m);
        assertThat(p.requestId()).isEqualTo(5);
        assertThat(p.responseExpected()).isFalse();
        assertThat(p.operation()).isEqualTo("ping");
        assertThat(p.bodyOffset()).isEqualTo(m.length);
    }

    @Test
    void shouldReadGiop11RequestHeaderWithReservedOctets() {
        byte[] m = new W().header(0, 1).ulong(0).ulong(6).raw(1, 0, 0, 0).octets(new byte[] {8}).string("x")
                .octets(new byte[0]).done();
        RequestParser.Parsed p = RequestParser.parse(m);
        assertThat(p.requestId()).isEqualTo(6);
        assertThat(p.responseExpected()).isTrue();
        assertThat(p.objectKey()).containsExactly(8);
    }

    /** An IIOP profile body: an encapsulation (big-endian), version 1.2, host, port, object key. */
    private static byte[] iiopProfile(byte[] key) {
        return new W().raw(0, 1, 2).string("127.0.0.1").ushort(4242).octets(key).b.toByteArray();
    }

    @Test
    void shouldTakeTheObjectKeyFromAProfileAddrTarget() {
        byte[] m = new W().header(0, 2).ulong(9).raw(3, 0, 0, 0).ushort(1).ulong(0).octets(iiopProfile(new byte[] {4, 5, 6}))
                .string("op").ulong(0).done();
        RequestParser.Parsed p = RequestParser.parse(m);
        assertThat(p.objectKey()).as("ProfileAddr must not hide the key from object-key rules").containsExactly(4, 5, 6);
        assertThat(p.operation()).isEqualTo("op");
    }

    @Test
    void shouldTakeTheObjectKeyOfTheSelectedProfileFromAReferenceAddrTarget() {
        byte[] m = new W().header(0, 2).ulong(10).raw(3, 0, 0, 0).ushort(2).ulong(1).string("IDL:x:1.0").ulong(2)
                .ulong(0).octets(iiopProfile(new byte[] {1})).ulong(0).octets(iiopProfile(new byte[] {7, 7}))
                .string("op").ulong(0).done();
        RequestParser.Parsed p = RequestParser.parse(m);
        assertThat(p.objectKey()).containsExactly(7, 7);
    }

    @Test
    void shouldRejectWhenLengthsExceedTheMessage() {
        byte[] m = new W().header(0, 2).ulong(1).raw(3, 0, 0, 0).ushort(0).ulong(1_000_000).done();
        assertThatThrownBy(() -> RequestParser.parse(m)).isInstanceOf(RequestParser.Malformed.class);
    }

    @Test
    void shouldRejectWhenServiceContextCountIsAbsurd() {
        byte[] m = new W().header(0, 2).ulong(1).raw(3, 0, 0, 0).ushort(0).octets(new byte[1]).string("op")
                .ulong(0x7fffffff).done();
        assertThatThrownBy(() -> RequestParser.parse(m)).isInstanceOf(RequestParser.Malformed.class);
    }

    @Test
    void shouldRejectWhenTargetDispositionIsUnknown() {
        byte[] m = new W().header(0, 2).ulong(1).raw(3, 0, 0, 0).ushort(9).done();
        assertThatThrownBy(() -> RequestParser.parse(m)).isInstanceOf(RequestParser.Malformed.class);
    }
}
