package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GiopTest {

    private static byte[] header(int major, int minor, int flags, long size) {
        byte[] h = {'G', 'I', 'O', 'P', (byte) major, (byte) minor, (byte) flags, 0, 0, 0, 0, 0};
        boolean little = (flags & 1) != 0;
        Giop.writeInt(h, 8, (int) size, little);
        return h;
    }

    @Test
    void shouldAcceptVersionsOneZeroToOneTwo() {
        for (int minor = 0; minor <= 2; minor++) {
            assertThat(Giop.check(header(1, minor, 0, 10), 1024)).isEqualTo(Giop.HeaderCheck.OK);
        }
    }

    @Test
    void shouldRefuseUnknownVersions() {
        assertThat(Giop.check(header(1, 3, 0, 0), 1024)).isEqualTo(Giop.HeaderCheck.BAD_VERSION);
        assertThat(Giop.check(header(2, 0, 0, 0), 1024)).isEqualTo(Giop.HeaderCheck.BAD_VERSION);
    }

    @Test
    void shouldReadSizeAsUnsignedInEitherByteOrder() {
        assertThat(Giop.bodySize(header(1, 2, 0, 0x80000000L))).isEqualTo(0x80000000L);
        assertThat(Giop.bodySize(header(1, 2, 1, 0x80000000L))).isEqualTo(0x80000000L);
        assertThat(Giop.check(header(1, 2, 1, 0x80000000L), 64 << 20)).isEqualTo(Giop.HeaderCheck.TOO_LARGE);
    }

    @Test
    void shouldRefuseWrongMagic() {
        byte[] h = header(1, 2, 0, 0);
        h[3] = 'X';
        assertThat(Giop.check(h, 1024)).isEqualTo(Giop.HeaderCheck.BAD_MAGIC);
    }

    @Test
    void shouldSeeMoreFragmentsOnlyFromGiop11() {
        assertThat(Giop.moreFragments(header(1, 0, 2, 0))).isFalse();
        assertThat(Giop.moreFragments(header(1, 1, 2, 0))).isTrue();
    }

    @Test
    void shouldEncodeSystemExceptionReplyWithContextsForGiop12() {
        byte[] r = Giop.systemExceptionReply(2, 9, "IDL:omg.org/CORBA/TRANSIENT:1.0", 7, 1,
                new int[] {0x10}, new byte[][] {{1, 2}});
        assertThat(Giop.type(r)).isEqualTo(Giop.REPLY);
        assertThat(Giop.bodySize(r)).isEqualTo(r.length - 12);
        assertThat(Giop.readUInt(r, 12, false)).isEqualTo(9);
        assertThat(Giop.readUInt(r, 16, false)).isEqualTo(2);
        assertThat(Giop.readUInt(r, 20, false)).isEqualTo(1);
    }

    @Test
    void shouldFindTheRequestIdOfAReplyBehindItsServiceContextsInGiop10And11() {
        for (int minor = 0; minor <= 2; minor++) {
            byte[] r = Giop.systemExceptionReply(minor, 4242, "IDL:omg.org/CORBA/TRANSIENT:1.0", 7, 1,
                    new int[] {0x10, 0x11}, new byte[][] {{1, 2, 3}, {4, 5, 6, 7, 8}});
            assertThat(Giop.replyRequestId(r, 0, r.length)).as("GIOP 1.%d", minor).isEqualTo(4242);
            byte[] shifted = new byte[r.length + 5];
            System.arraycopy(r, 0, shifted, 5, r.length);
            assertThat(Giop.replyRequestId(shifted, 5, r.length)).as("at an offset, GIOP 1.%d", minor).isEqualTo(4242);
        }
    }

    @Test
    void shouldGiveNoRequestIdForOtherMessagesOrOneThatTheBytesDoNotReach() {
        byte[] r = Giop.systemExceptionReply(1, 4242, "IDL:omg.org/CORBA/TRANSIENT:1.0", 7, 1,
                new int[] {0x10}, new byte[][] {new byte[40]});
        assertThat(Giop.replyRequestId(r, 0, 30)).as("the id lies past the first 30 bytes").isEqualTo(-1);
        byte[] huge = r.clone();
        Giop.writeInt(huge, 20, Integer.MAX_VALUE, false); // the context's declared length
        assertThat(Giop.replyRequestId(huge, 0, huge.length)).isEqualTo(-1);
        assertThat(Giop.replyRequestId(Giop.emptyMessage(Giop.CLOSE_CONNECTION, 2), 0, 12)).isEqualTo(-1);
        byte[] request = header(1, 2, Giop.REQUEST, 8);
        assertThat(Giop.replyRequestId(java.util.Arrays.copyOf(request, 20), 0, 20)).isEqualTo(-1);
    }
}
