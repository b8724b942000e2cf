package org.irmi.orb.internal.rmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.irmi.isolation.MinorCodes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The serialization filter hook on a plain {@code ObjectInputStream} built after it is installed:
 * inside a server's argument read ({@link ValueReadScope}) it refuses the array a collection's
 * {@code readObject} sizes from the stream, before the allocation; outside one it changes nothing.
 * (Through GlassFish and a real server: {@code HostileValuesTest}.)
 */
class SerialFilterHookTest {

    @BeforeAll
    static void install() {
        assertThat(SerialFilterHook.install()).as("a factory, or the JVM-wide filter").isNotEqualTo(SerialFilterHook.Installed.NONE);
    }

    @Test
    void shouldRefuseAListSizeTheBytesLeftCannotCarryBeforeItsReadObjectAllocates() throws Exception {
        byte[] hostile = listDeclaring(1 << 28);
        ValueFilter filter = new ValueFilter(null, null, Set.of(), () -> Long.MAX_VALUE);
        ValueReadScope scope = ValueReadScope.open(filter, new org.jacorb.orb.CDRInputStream(new byte[300]));
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(hostile))) {
            assertThatThrownBy(in::readObject).isInstanceOf(InvalidClassException.class).hasMessageContaining("REJECTED");
            assertThat(scope.refusal()).isNotNull();
            assertThat(scope.refusal().minor).isEqualTo(MinorCodes.VALUE_REFUSED);
            assertThat(scope.refusal().getMessage()).contains("(collection)").contains("268435456");
            assertThat(scope.refusal().getStackTrace()).as("nothing to log per request").isEmpty();
        } finally {
            scope.close();
        }
    }

    @Test
    void shouldRefuseWhatTheInboundBudgetHasNoRoomFor() {
        ValueFilter filter = new ValueFilter(null, null, Set.of(), () -> 0L); // nothing free
        ValueReadScope scope = ValueReadScope.open(filter, new org.jacorb.orb.CDRInputStream(new byte[1 << 20]));
        try {
            assertThat(scope.allocating(Object[].class, 3)).as("a small array").isNull();
            assertThat(scope.allocating(Object[].class, 100_000)).as("800 KB more than the budget has").isNotNull();
        } finally {
            scope.close();
        }
    }

    @Test
    void shouldReadAnOrdinaryListInsideAndOutsideAServersArgumentRead() throws Exception {
        byte[] ordinary = listDeclaring(3);
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(ordinary))) {
            assertThat(in.readObject()).isEqualTo(List.of(7, 8, 9));
        }
        ValueFilter filter = new ValueFilter(null, null, Set.of(), () -> Long.MAX_VALUE);
        ValueReadScope scope = ValueReadScope.open(filter, new org.jacorb.orb.CDRInputStream(new byte[300]));
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(ordinary))) {
            assertThat(in.readObject()).isEqualTo(List.of(7, 8, 9));
            assertThat(scope.refusal()).isNull();
        } finally {
            scope.close();
        }
    }

    /** An {@code ArrayList} of 7, 8, 9 serialized, its {@code size} field rewritten to {@code size}. */
    private static byte[] listDeclaring(int size) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(List.of(7, 8, 9)));
        }
        byte[] b = bytes.toByteArray();
        // the field's value comes right before the block that writeObject writes: TC_BLOCKDATA, 4, capacity 3
        byte[] block = {0x77, 4, 0, 0, 0, 3};
        for (int i = 4; i + block.length <= b.length; i++) {
            if (java.util.Arrays.equals(b, i, i + block.length, block, 0, block.length)) {
                b[i - 4] = (byte) (size >>> 24);
                b[i - 3] = (byte) (size >>> 16);
                b[i - 2] = (byte) (size >>> 8);
                b[i - 1] = (byte) size;
                return b;
            }
        }
        throw new AssertionError("no size field in the serialized list");
    }
}
