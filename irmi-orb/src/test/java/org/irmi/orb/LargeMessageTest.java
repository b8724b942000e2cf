package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Arrays;

import irmitest.Echo;
import irmitest.EchoHelper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/** 10 MB requests and replies, whole and fragmented (GIOP 1.2, interleaved across connections). */
class LargeMessageTest {

    private static final int TEN_MB = 10 * 1024 * 1024;

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + (i >>> 11));
        }
        return b;
    }

    @Test
    void shouldEchoTenMegabytesBothWaysWhenIrmiClientCallsIrmiServer() {
        server = Orbs.irmi();
        client = Orbs.irmi();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));
        byte[] data = pattern(TEN_MB);
        assertThat(Arrays.equals(echo.echoBytes(data), data)).isTrue();
    }

    @Test
    void shouldEchoTenMegabytesWhenStockClientCallsIrmiServer() {
        server = Orbs.irmi();
        client = Orbs.stock();
        Echo echo = EchoHelper.narrow(client.string_to_object(Orbs.serve(server, new EchoServant())));
        byte[] data = pattern(TEN_MB);
        assertThat(Arrays.equals(echo.echoBytes(data), data)).isTrue();
    }

    @Test
    void shouldReassembleTenMegabyteRequestsWhenFragmentsInterleaveAcrossConnections() throws IOException {
        server = Orbs.irmi();
        client = Orbs.irmi();
        String ior = Orbs.serve(server, new EchoServant());
        byte[] key = GiopClient.objectKey(client.string_to_object(ior));
        int port = Orbs.transport(server).port();
        byte[] data = pattern(TEN_MB);
        byte[] request = GiopClient.request12(21, key, "echoBytes", GiopClient.bytesArg(data), true);
        byte[][] parts = GiopClient.fragment12(request, 21, 1024 * 1024);
        assertThat(parts.length).isGreaterThan(10);
        try (GiopClient a = new GiopClient(port); GiopClient b = new GiopClient(port)) {
            a.socket.setSoTimeout(20_000);
            b.socket.setSoTimeout(20_000);
            for (byte[] part : parts) {
                a.send(part);
                b.send(part);
            }
            for (GiopClient c : new GiopClient[] {a, b}) {
                byte[] reply = c.readMessage();
                assertThat(GiopClient.type(reply)).isEqualTo(1);
                assertThat(GiopClient.requestIdOfReply(reply)).isEqualTo(21);
                assertThat(GiopClient.replyStatus(reply)).isZero();
                assertThat(GiopClient.bytesResultLength(reply)).isEqualTo(TEN_MB);
                assertThat(Arrays.equals(Arrays.copyOfRange(reply, reply.length - TEN_MB, reply.length), data)).isTrue();
            }
        }
    }

    @Test
    void shouldReassembleGiop11FragmentsWhenClientSendsThem() throws IOException {
        server = Orbs.irmi();
        client = Orbs.irmi();
        String ior = Orbs.serve(server, new EchoServant());
        byte[] key = GiopClient.objectKey(client.string_to_object(ior));
        // GIOP 1.1 request: contexts, id, response, reserved, key, op, principal, then args.
        GiopClient.Cdr c = new GiopClient.Cdr();
        c.header(0, 1, 0);
        c.ulong(0);
        c.ulong(3);
        c.octet(1);
        c.raw(new byte[3]);
        c.octets(key);
        c.string("echoString");
        c.octets(new byte[0]);
        c.string("fragmented eleven");
        byte[] whole = c.finish();
        int cut = 40;
        byte[] first = Arrays.copyOf(whole, cut);
        first[6] = 2;
        setSize(first);
        GiopClient.Cdr f = new GiopClient.Cdr();
        f.header(7, 1, 0);
        f.raw(Arrays.copyOfRange(whole, cut, whole.length));
        try (GiopClient g = new GiopClient(Orbs.transport(server).port())) {
            g.send(first);
            g.send(f.finish());
            byte[] reply = g.readMessage();
            assertThat(GiopClient.type(reply)).isEqualTo(1);
            // GIOP 1.1 reply: contexts (0), request id, status, then the string.
            assertThat(GiopClient.readInt(reply, 16)).isEqualTo(3);
            assertThat(GiopClient.readInt(reply, 20)).isZero();
            int len = GiopClient.readInt(reply, 24);
            assertThat(new String(reply, 28, len - 1)).isEqualTo("fragmented eleven");
        }
    }

    private static void setSize(byte[] m) {
        int size = m.length - 12;
        m[8] = (byte) (size >>> 24);
        m[9] = (byte) (size >>> 16);
        m[10] = (byte) (size >>> 8);
        m[11] = (byte) size;
    }
}
