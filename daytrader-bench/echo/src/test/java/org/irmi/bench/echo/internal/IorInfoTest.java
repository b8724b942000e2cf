package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.irmi.bench.echo.EchoServer;
import org.irmi.bench.echo.OrbVariants;
import org.junit.jupiter.api.Test;

class IorInfoTest {

    @Test
    void shouldFindListeningHostAndPortWhenIorComesFromJacorb() throws Exception {
        try (EchoServer server = EchoServer.start(OrbVariants.jacorb(), "127.0.0.1", 0, Map.of())) {
            IorInfo info = IorInfo.parse(server.ior());

            assertThat(info.typeId()).isEqualTo("IDL:irmibench/Echo:1.0");
            assertThat(info.host()).isEqualTo("127.0.0.1");
            assertThat(info.objectKey()).isNotEmpty();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(info.host(), info.port()), 2000);
                assertThat(s.isConnected()).isTrue();
            }
        }
    }

    @Test
    void shouldReadBackWhatItStringifies() {
        // a port above 32767 (an unsigned short on the wire) and a key of odd length (padding before the port)
        IorInfo info = new IorInfo("IDL:irmibench/Echo:1.0", "localhost", 50123, new byte[] {0, 7, -1, 'k', 9});

        IorInfo back = IorInfo.parse(info.stringified());

        assertThat(back.typeId()).isEqualTo("IDL:irmibench/Echo:1.0");
        assertThat(back.host()).isEqualTo("localhost");
        assertThat(back.port()).isEqualTo(50123);
        assertThat(back.objectKey()).containsExactly(0, 7, -1, 'k', 9);
    }

    @Test
    void shouldEscapeNonPrintableKeyBytesWhenMakingCorbaloc() {
        IorInfo info = new IorInfo("IDL:x:1.0", "h", 1, new byte[] {'a', '/', 0, (byte) 0xff, ' '});

        assertThat(info.corbaloc("127.0.0.1", 7)).isEqualTo("corbaloc:iiop:1.2@127.0.0.1:7/a/%00%FF%20");
    }

    @Test
    void shouldRejectTextWhenItIsNotAnIor() {
        assertThatThrownBy(() -> IorInfo.parse("corbaloc:iiop:localhost:1/x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must start with IOR:");
    }

    @Test
    void shouldRejectIorWhenItIsTruncated() {
        String truncated = "IOR:" + java.util.HexFormat.of().formatHex("\0\0\0\0\0\0\0\u0020IDL".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> IorInfo.parse(truncated))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed IOR");
    }
}
