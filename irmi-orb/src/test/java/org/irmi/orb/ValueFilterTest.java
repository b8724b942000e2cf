package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;

import javax.rmi.PortableRemoteObject;
import javax.rmi.CORBA.Tie;
import javax.rmi.CORBA.Util;

import org.irmi.orb.internal.rmi.ValueFilters;
import org.irmi.orb.rmi.Greeting;
import org.irmi.orb.rmi.ReadTripwire;
import org.irmi.orb.rmi.RemoteEcho;
import org.irmi.orb.rmi.RemoteEchoImpl;
import org.irmi.orb.rmi.TripwireEcho;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.Servant;

/**
 * The RMI-IIOP value filter through real ORBs: what a client names on the wire is refused before
 * it is loaded or built, unless the exported Remote interfaces reach it or it is a JDK value class
 * of the defaults; legitimate calls keep working.
 */
class ValueFilterTest {

    private static ORB server;
    private static ORB stockClient;
    private static String ior;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        server = Orbs.irmi();
        RemoteEchoImpl impl = new RemoteEchoImpl();
        PortableRemoteObject.exportObject(impl);
        Tie tie = Util.getTie(impl);
        POA root = POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        ior = server.object_to_string(root.servant_to_reference((Servant) tie));
        port = Orbs.transport(server).port();
        stockClient = Orbs.stock();
    }

    @AfterAll
    static void stop() {
        Orbs.destroy(stockClient, server);
    }

    private static <T> T lookup(Class<T> type) {
        return type.cast(PortableRemoteObject.narrow(stockClient.string_to_object(ior), type));
    }

    @Test
    void shouldRefuseATripwireSentWhereAStringBelongsWithoutRunningIt() throws Exception {
        long refusedBefore = ValueFilters.refusedCount();
        TripwireEcho hostile = lookup(TripwireEcho.class);
        assertThatThrownBy(() -> hostile.echoText(new ReadTripwire())).isInstanceOf(java.rmi.RemoteException.class)
                .hasRootCauseInstanceOf(org.omg.CORBA.MARSHAL.class)
                .satisfies(e -> assertThat(((org.omg.CORBA.MARSHAL) org.assertj.core.util.Throwables.getRootCause(e)).minor)
                        .as("refused by name before loading: answered VALUE_REFUSED")
                        .isEqualTo(org.irmi.isolation.MinorCodes.VALUE_REFUSED));
        assertThat(ReadTripwire.READS.get()).as("readObject calls on the server").isZero();
        assertThat(ValueFilters.refusedCount()).isGreaterThan(refusedBefore);
        assertThat(lookup(RemoteEcho.class).echoText("still fine")).isEqualTo("still fine");
    }

    @Test
    void shouldRefuseAHashMapKeyedByUrl() throws Exception {
        long refusedBefore = ValueFilters.refusedCount();
        HashMap<Object, String> probe = new HashMap<>();
        probe.put(new URL("http://probe.invalid/"), "dns");
        RemoteEcho echo = lookup(RemoteEcho.class);
        assertThatThrownBy(() -> echo.measure(probe)).isInstanceOf(java.rmi.RemoteException.class);
        assertThat(ValueFilters.refusedCount()).isGreaterThan(refusedBefore);
        HashMap<String, Integer> plain = new HashMap<>();
        plain.put("a", 1);
        assertThat(echo.measure(plain)).isEqualTo(plain.toString().length());
    }

    @Test
    void shouldKeepLegitimateCallsWorkingWithTheDefaults() throws Exception {
        RemoteEcho echo = lookup(RemoteEcho.class);
        Greeting g = new Greeting("hi", 41, new byte[] {1, 2, 3});
        assertThat(echo.greet(g)).isEqualTo(new Greeting("hi!", 42, new byte[] {1, 2, 3}));
        assertThat(echo.echoText("text")).isEqualTo("text");
        assertThat(echo.measure(new java.math.BigDecimal("12.50"))).isEqualTo(5);
        assertThat(echo.measure(new java.util.ArrayList<>(java.util.List.of("x", 2L)))).isEqualTo("[x, 2]".length());
    }

    @Test
    void shouldRefuseAStringArgumentDeclaringAGibibyteBeforeJacorbAllocatesIt() throws IOException {
        // found by fuzzing: JacORB's readGiop12WString allocates the characters at the declared length
        assertRefusedAsValue(stringArgument(0x7fffff02, "IDL:omg.org/CORBA/WStringValue:1.0", 1 << 30));
    }

    @Test
    void shouldRefuseAStringArgumentWithoutTypeInformationDeclaringAGibibyte() throws IOException {
        // no repository id: JacORB reads the String the tie expects
        assertRefusedAsValue(stringArgument(0x7fffff00, null, 1 << 30));
    }

    @Test
    void shouldStillAcceptAStringArgumentWrittenByHand() throws Exception {
        byte[] key = GiopClient.objectKey(stockClient.string_to_object(ior));
        GiopClient.Cdr arg = stringArgument(0x7fffff02, "IDL:omg.org/CORBA/WStringValue:1.0", 4);
        arg.octets(new byte[] {0, 'h', 0, 'i'}); // UTF-16 "hi"
        try (GiopClient c = new GiopClient(port)) {
            c.send(GiopClient.request12(5, key, "echoText", arg.bytes(), true));
            byte[] reply = c.readMessage();
            assertThat(GiopClient.replyStatus(reply)).as("NO_EXCEPTION: the check refuses only what cannot fit")
                    .isEqualTo(0);
        }
    }

    @Test
    void shouldAnswerMarshalWhenTheArgumentsEndBeforeTheValue() throws IOException {
        // found by fuzzing: measure(Serializable) with no argument bytes made JacORB's reader throw
        // ArrayIndexOutOfBoundsException, answered UNKNOWN with an ERROR and a stack trace per request
        assertMarshalRefused("measure", new byte[0]);
        assertThat(lookup(RemoteEcho.class).echoText("still fine")).isEqualTo("still fine");
    }

    /** echoText's argument: a boxed wide string whose length field says {@code declaredOctets}. */
    private static GiopClient.Cdr stringArgument(int tag, String repositoryId, int declaredOctets) {
        GiopClient.Cdr arg = new GiopClient.Cdr(0);
        arg.ulong(tag);
        if (repositoryId != null) {
            arg.string(repositoryId);
        }
        arg.ulong(declaredOctets);
        return arg;
    }

    /** Sends {@code arg} as echoText's argument: refused by the value filter, and counted. */
    private void assertRefusedAsValue(GiopClient.Cdr arg) throws IOException {
        long refusedBefore = ValueFilters.refusedCount();
        assertMarshalRefused("echoText", arg.bytes());
        assertThat(ValueFilters.refusedCount()).isGreaterThan(refusedBefore);
    }

    /** Sends a request with {@code args}: answered MARSHAL with I-RMI's VALUE_REFUSED minor code. */
    private void assertMarshalRefused(String operation, byte[] args) throws IOException {
        byte[] key = GiopClient.objectKey(stockClient.string_to_object(ior));
        try (GiopClient c = new GiopClient(port)) {
            c.send(GiopClient.request12(7, key, operation, args, true));
            byte[] reply = c.readMessage();
            assertThat(GiopClient.type(reply)).as("Reply").isEqualTo(1);
            assertThat(GiopClient.replyStatus(reply)).as("SYSTEM_EXCEPTION").isEqualTo(2);
            String id = GiopClient.exceptionId(reply);
            assertThat(id).isEqualTo("IDL:omg.org/CORBA/MARSHAL:1.0");
            int at = (exceptionIdEnd(reply, id) + 3) & ~3;
            assertThat(GiopClient.readInt(reply, at)).as("minor code: refused by the I-RMI value filter")
                    .isEqualTo(org.irmi.isolation.MinorCodes.VALUE_REFUSED);
        }
    }

    @Test
    void shouldRefuseAnArrayLengthOfTwoToThe28BeforeAllocating() throws IOException {
        // echoText's String argument, replaced by a String[] value that declares 2^28 elements in 4 bytes
        GiopClient.Cdr arg = new GiopClient.Cdr(0);
        arg.ulong(0x7fffff02); // value tag: one repository id follows
        arg.string("RMI:[Ljava.lang.String;:071DA8BE7F971128:A0F0A4387A3BB342");
        arg.ulong(1 << 28);
        assertRefusedAsValue(arg);
    }

    @Test
    void shouldRefuseARepositoryIdCountOfTwoToThe28BeforeJacorbAllocatesIt() throws IOException {
        GiopClient.Cdr arg = new GiopClient.Cdr(0);
        arg.ulong(0x7fffff06); // value tag: a list of repository ids follows
        arg.ulong(1 << 28); // JacORB would allocate new String[2^28] here
        assertRefusedAsValue(arg);
    }

    @Test
    void shouldRefuseARepositoryIdCountOfTwoToThe28InAValueNestedInAnother() throws IOException {
        // a String[] of one element (allowed), whose element's header declares 2^28 repository ids:
        // read by JacORB for GlassFish's array reader, one level below the argument
        GiopClient.Cdr arg = new GiopClient.Cdr(0);
        arg.ulong(0x7fffff02); // value tag: one repository id follows
        arg.string("RMI:[Ljava.lang.String;:071DA8BE7F971128:A0F0A4387A3BB342");
        arg.ulong(1); // one element
        arg.ulong(0x7fffff06); // the element's value tag: a list of repository ids follows
        arg.ulong(1 << 28); // JacORB would allocate new String[2^28] here
        arg.ulong(0);
        assertRefusedAsValue(arg);
    }

    private static int exceptionIdEnd(byte[] reply, String id) {
        byte[] b = id.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i + b.length < reply.length; i++) {
            if (java.util.Arrays.equals(reply, i, i + b.length, b, 0, b.length)) {
                return i + b.length + 1;
            }
        }
        throw new AssertionError("no exception id in the reply");
    }
}
