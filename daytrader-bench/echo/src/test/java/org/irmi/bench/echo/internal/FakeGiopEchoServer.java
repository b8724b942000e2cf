package org.irmi.bench.echo.internal;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A GIOP server for the load clients' tests: it reads GIOP 1.2 requests and answers each with a Reply of
 * its body's octets, altered as asked, so a test can check that a client counts a wrong answer as an error.
 */
final class FakeGiopEchoServer implements AutoCloseable {

    /** How the server answers every request. */
    enum Answer { RIGHT, WRONG_ID, WRONG_OCTETS, SYSTEM_EXCEPTION, HUGE_REPOSITORY_ID }

    private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final Thread acceptor;

    FakeGiopEchoServer(Answer answer) throws IOException {
        acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    Thread t = new Thread(() -> answer(s, answer));
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** An IOR for this server: its port, a made-up object key. */
    IorInfo ior() {
        return new IorInfo("IDL:irmibench/Echo:1.0", "127.0.0.1", socket.getLocalPort(), new byte[] {1, 2, 3});
    }

    private static void answer(Socket s, Answer answer) {
        try (s) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            while (true) {
                byte[] header = new byte[12];
                in.readFully(header);
                int size = ByteBuffer.wrap(header).getInt(8);
                byte[] body = new byte[size];
                in.readFully(body);
                ByteBuffer req = ByteBuffer.wrap(body).order(ByteOrder.BIG_ENDIAN);
                int id = req.getInt(0);
                // The request's argument is its last ulong-prefixed run of octets: 100 of them.
                byte[] octets = Arrays.copyOfRange(body, body.length - 100, body.length);
                if (answer == Answer.SYSTEM_EXCEPTION || answer == Answer.HUGE_REPOSITORY_ID) {
                    out.write(systemException(id, answer == Answer.HUGE_REPOSITORY_ID));
                    out.flush();
                    continue;
                }
                if (answer == Answer.WRONG_OCTETS) {
                    octets[0] ^= 1;
                }
                ByteBuffer r = ByteBuffer.allocate(12 + 16 + octets.length).order(ByteOrder.BIG_ENDIAN);
                r.put(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 1});
                r.putInt(r.capacity() - 12);
                r.putInt(answer == Answer.WRONG_ID ? id + 1 : id);
                r.putInt(0); // NO_EXCEPTION
                r.putInt(0); // no service contexts
                r.putInt(octets.length); // at offset 24: already 8-aligned
                r.put(octets);
                out.write(r.array());
                out.flush();
            }
        } catch (IOException e) {
            // the client closed the connection
        }
    }

    /** A Reply with status SYSTEM_EXCEPTION: TRANSIENT, or a repository id that claims 2^30 bytes. */
    private static byte[] systemException(int id, boolean hugeId) {
        byte[] repoId = "IDL:omg.org/CORBA/TRANSIENT:1.0\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ByteBuffer r = ByteBuffer.allocate(12 + 16 + 4 + repoId.length + 4 + 4).order(ByteOrder.BIG_ENDIAN);
        r.put(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 1});
        r.putInt(r.capacity() - 12);
        r.putInt(id);
        r.putInt(2); // SYSTEM_EXCEPTION
        r.putInt(0); // no service contexts
        r.putInt(hugeId ? 1 << 30 : repoId.length); // at offset 24: already 8-aligned
        r.put(repoId); // 32 bytes: the minor code follows at an aligned offset
        r.putInt(0x4f4d0001);
        r.putInt(1); // COMPLETED_NO
        return r.array();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
