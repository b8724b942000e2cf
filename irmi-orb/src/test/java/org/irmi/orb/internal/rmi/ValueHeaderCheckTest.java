package org.irmi.orb.internal.rmi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The length of a string box, checked where JacORB reads it: right after the header at the top
 * level, after a chunk size inside a chunked value (the value fuzzer's {@code greet} input), and
 * refused when JacORB's nesting level cannot be read. Read with JacORB's own stream; through a real
 * server: {@code HostileValuesTest}.
 */
class ValueHeaderCheckTest {

    private static final int TWO_TO_THE_28 = 1 << 28;
    private static final JacorbValueNesting MISSING = new JacorbValueNesting("levelOfNesting");

    @Test
    void shouldCheckTheLengthRightAfterTheHeaderOutsideAnyChunkedValue() {
        org.jacorb.orb.CDRInputStream hostile = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.SINGLE_ID)
                .aLong(TWO_TO_THE_28).stream();
        org.jacorb.orb.CDRInputStream normal = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.SINGLE_ID)
                .wstring("hello").stream();

        assertThat(ValueHeaderCheck.check(hostile, null)).contains("string length 268435456");
        assertThat(ValueHeaderCheck.check(normal, null)).isNull();
        assertThat(normal.read_value()).as("the stream where it was, for JacORB").isEqualTo("hello");
    }

    @Test
    void shouldCheckTheLengthAfterTheChunkSizeJacorbReadsInsideAChunkedValue() {
        // the chunk size (14) would pass as a length; JacORB reads the length after it
        org.jacorb.orb.CDRInputStream hostile = new ChunkedValueBytes().chunkedValue()
                .wstringBox(ChunkedValueBytes.SINGLE_ID).aLong(14).aLong(TWO_TO_THE_28).stream();
        hostile.start_value();
        org.jacorb.orb.CDRInputStream normal = new ChunkedValueBytes().chunkedValue()
                .wstringBox(ChunkedValueBytes.SINGLE_ID).aLong(14).wstring("hello").stream();
        normal.start_value();

        assertThat(ValueHeaderCheck.check(hostile, null)).contains("string length 268435456");
        assertThat(ValueHeaderCheck.check(normal, null)).isNull();
        assertThat(normal.read_value()).isEqualTo("hello");
    }

    @Test
    void shouldCheckAStringWithoutTypeInformationByTheClassTheReaderExpects() {
        // how JacORB's stubs write a String argument: write_value(s, String.class), no repository id
        org.jacorb.orb.CDRInputStream hostile = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.NO_TYPE_INFO)
                .aLong(TWO_TO_THE_28).stream();

        assertThat(ValueHeaderCheck.check(hostile, String.class)).contains("string length 268435456");
    }

    @Test
    void shouldRefuseAStringWhoseStateStartsWithAnEmptyChunk() {
        // JacORB ends the empty chunk at once and takes the next long (4) for the next chunk's
        // size: it reads the length after that. Read as the length, the 4 would fit
        org.jacorb.orb.CDRInputStream hostile = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.CHUNKED_SINGLE_ID)
                .aLong(0).aLong(4).aLong(TWO_TO_THE_28).stream();
        org.jacorb.orb.CDRInputStream twin = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.CHUNKED_SINGLE_ID)
                .aLong(0).aLong(14).wstring("hello").stream();

        assertThat(ValueHeaderCheck.check(hostile, null)).contains("empty chunk");
        assertThat(ValueHeaderCheck.check(twin, null)).as("refused too: no writer starts a string with an empty chunk")
                .contains("empty chunk");
        assertThat(twin.read_value()).as("where JacORB reads the length").isEqualTo("hello");
    }

    @Test
    void shouldRefuseAStringBoxNotChunkedWhenJacorbsNestingLevelCannotBeRead() {
        org.jacorb.orb.CDRInputStream normal = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.SINGLE_ID)
                .wstring("hello").stream();

        assertThat(ValueHeaderCheck.check(normal, null, MISSING)).contains("where JacORB reads this string's length is not known")
                .contains("CDRInputStream.levelOfNesting");
    }

    @Test
    void shouldCheckAChunkedStringBoxWithoutJacorbsNestingLevel() {
        // its tag says chunked: JacORB reads a chunk size whatever the nesting
        org.jacorb.orb.CDRInputStream normal = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.CHUNKED_SINGLE_ID)
                .aLong(14).wstring("hello").stream();

        assertThat(ValueHeaderCheck.check(normal, null, MISSING)).isNull();
        assertThat(normal.read_value()).isEqualTo("hello");
    }

    @Test
    void shouldLeaveValuesThatAreNotStringBoxesToJacorbWithoutJacorbsNestingLevel() {
        org.jacorb.orb.CDRInputStream other = new ChunkedValueBytes().aLong(ChunkedValueBytes.SINGLE_ID)
                .string("RMI:java.lang.Integer:0000000000000000").aLong(7).stream();

        assertThat(ValueHeaderCheck.check(other, null, MISSING)).isNull();
    }
}
