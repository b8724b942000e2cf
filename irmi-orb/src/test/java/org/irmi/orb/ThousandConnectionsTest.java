package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/** 1,000 concurrent client connections, all with a request in flight, on one reader thread. */
class ThousandConnectionsTest {

    private static final int CONNECTIONS = 1000;

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    @Test
    void shouldServeThousandConcurrentCallersOnOneReaderThreadWithoutErrors() throws Exception {
        server = Orbs.irmi();
        client = Orbs.irmi();
        String ior = Orbs.serve(server, new EchoServant());
        byte[] key = GiopClient.objectKey(client.string_to_object(ior));
        int port = Orbs.transport(server).port();
        List<GiopClient> clients = new ArrayList<>(CONNECTIONS);
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.add(new GiopClient(port));
            }
            byte[] args = new byte[4];
            args[3] = 20; // sleepMillis(20): every request is still running when the last arrives
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.get(i).send(GiopClient.request12(i, key, "sleepMillis", args, true));
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Orbs.transport(server).stats().openConnections() < CONNECTIONS && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // accepting is asynchronous to connect()
            }
            assertThat(Orbs.transport(server).stats().openConnections()).isEqualTo(CONNECTIONS);
            assertThat(Threads.named(IrmiTransport.READER_THREAD_NAME)).isEqualTo(1);
            int ok = 0;
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.get(i).socket.setSoTimeout(30_000);
                byte[] reply = clients.get(i).readMessage();
                assertThat(GiopClient.requestIdOfReply(reply)).isEqualTo(i);
                if (GiopClient.replyStatus(reply) == 0) {
                    ok++;
                }
            }
            assertThat(ok).isEqualTo(CONNECTIONS);
            assertThat(Threads.named(IrmiTransport.READER_THREAD_NAME)).isEqualTo(1);
            assertThat(Orbs.transport(server).stats().handoffRejections()).isZero();
        } finally {
            for (GiopClient c : clients) {
                c.close();
            }
        }
    }
}
