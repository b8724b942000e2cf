package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;

/**
 * A read budget shares the selector thread between connections that have data; a connection that
 * is the only readable one reads up to {@code irmi.transport.solo_read_budget_bytes} per turn. A
 * lone 4 MB request under a 4 KiB budget used to take 1,024 turns, each a select call, and with a
 * small receive buffer each also delayed the sender's window update (docs/benchmarks/crosstalk-read-path.md).
 */
class SoloReadTurnTest {

    private static final int FOUR_MB = 4 * 1024 * 1024;
    private static final String SMALL_BUDGET = "4096";

    private ORB server;
    private ORB client;

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    /** Sends one 4 MB echoBytes request on its own connection and returns that connection's view. */
    private ConnectionView sendLoneLargeRequest() throws IOException {
        String ior = Orbs.serve(server, new EchoServant());
        client = Orbs.irmi();
        byte[] key = GiopClient.objectKey(client.string_to_object(ior));
        IrmiTransport transport = Orbs.transport(server);
        byte[] request = GiopClient.request12(7, key, "echoBytes", GiopClient.bytesArg(new byte[FOUR_MB]), true);
        try (GiopClient c = new GiopClient(transport.port())) {
            c.socket.setSoTimeout(20_000);
            c.send(request);
            byte[] reply = c.readMessage();
            assertThat(GiopClient.replyStatus(reply)).isZero();
            assertThat(transport.connections()).hasSize(1);
            return transport.connections().get(0);
        }
    }

    @Test
    void shouldReadPastTheBudgetWhenTheConnectionIsTheOnlyReadableOne() throws IOException {
        server = Orbs.irmi("irmi.transport.read_budget_bytes", SMALL_BUDGET);

        ConnectionView view = sendLoneLargeRequest();

        assertThat(view.bytesRead()).isGreaterThanOrEqualTo(FOUR_MB);
        // Filled turns are turns that read the whole (solo) budget of 256 KiB: at most 16 for 4 MB.
        assertThat(view.budgetFilledTurns()).isLessThanOrEqualTo(FOUR_MB / (256 * 1024));
    }

    @Test
    void shouldKeepTheBudgetWhenTheSoloBudgetIsNoLarger() throws IOException {
        // The control: a solo budget equal to the budget gives back one turn per 4 KiB.
        server = Orbs.irmi("irmi.transport.read_budget_bytes", SMALL_BUDGET,
                "irmi.transport.solo_read_budget_bytes", SMALL_BUDGET);

        ConnectionView view = sendLoneLargeRequest();

        assertThat(view.budgetFilledTurns()).isGreaterThan(200);
    }
}
