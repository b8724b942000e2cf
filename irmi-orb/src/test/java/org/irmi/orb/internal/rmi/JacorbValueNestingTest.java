package org.irmi.orb.internal.rmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;

import org.irmi.orb.internal.rmi.JacorbValueNesting.ChunkSize;
import org.junit.jupiter.api.Test;

/**
 * JacORB's value nesting level, read where JacORB keeps it, on the JacORB of the build: the field
 * is there, and the answer matches where JacORB's own {@code read_value} then finds a string box's
 * length. When JacORB is upgraded and the field is gone or changed, the first test fails, naming
 * the field; the server would answer {@link ChunkSize#UNKNOWN} and refuse (see the last tests).
 */
class JacorbValueNestingTest {

    @Test
    void shouldFindJacorbsNestingLevelOnTheJacorbOfTheBuild() {
        assertThat(JacorbValueNesting.JACORB.unavailable()).as("CDRInputStream.valueNestingLevel on JacORB %s",
                JacorbValueNesting.BUILT_FOR).isNull();
        assertThat(org.jacorb.orb.CDRInputStream.class.getPackage().getImplementationVersion())
                .as("the JacORB at run time is the one of the build").isEqualTo(JacorbValueNesting.BUILT_FOR);
    }

    @Test
    void shouldAnswerNotReadOutsideAnyChunkedValue() {
        org.jacorb.orb.CDRInputStream in = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.SINGLE_ID).wstring("hello").stream();

        assertThat(JacorbValueNesting.JACORB.chunkSizeBeforeState(in)).isEqualTo(ChunkSize.NOT_READ);
        assertThat(in.read_value()).as("JacORB reads the length right after the header").isEqualTo("hello");
    }

    @Test
    void shouldAnswerReadInsideAChunkedValueWhereJacorbReadsAChunkSizeFirst() {
        org.jacorb.orb.CDRInputStream in = new ChunkedValueBytes().chunkedValue()
                .wstringBox(ChunkedValueBytes.SINGLE_ID).aLong(14).wstring("hello").stream();
        in.start_value(); // into the chunked value, as GlassFish's reader enters one

        assertThat(JacorbValueNesting.JACORB.chunkSizeBeforeState(in)).isEqualTo(ChunkSize.READ);
        assertThat(in.read_value()).as("JacORB reads a chunk size (14), then the length").isEqualTo("hello");
    }

    @Test
    void shouldAnswerNotReadInsideAChunkedValueWhenTheOrbSetsSunInterop() {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        p.setProperty("jacorb.interop.sun", "true");
        org.omg.CORBA.ORB orb = org.omg.CORBA.ORB.init(new String[0], p);
        try {
            org.jacorb.orb.CDRInputStream in = new ChunkedValueBytes().chunkedValue()
                    .wstringBox(ChunkedValueBytes.SINGLE_ID).wstring("hello").stream(orb);
            in.start_value();

            assertThat(JacorbValueNesting.JACORB.chunkSizeBeforeState(in)).isEqualTo(ChunkSize.NOT_READ);
            assertThat(in.read_value()).as("JacORB reads the length right after the header").isEqualTo("hello");
        } finally {
            orb.destroy();
        }
    }

    @Test
    void shouldAnswerUnknownWhenTheFieldIsMissing() {
        JacorbValueNesting missing = new JacorbValueNesting("levelOfNesting");
        org.jacorb.orb.CDRInputStream in = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.SINGLE_ID).wstring("hello").stream();

        assertThat(missing.chunkSizeBeforeState(in)).isEqualTo(ChunkSize.UNKNOWN);
        assertThat(missing.unavailable()).contains("org.jacorb.orb.CDRInputStream.levelOfNesting")
                .contains("NoSuchFieldException").contains("built for JacORB " + JacorbValueNesting.BUILT_FOR);
    }

    @Test
    void shouldAnswerUnknownWhenTheFieldIsNotAnInt() {
        JacorbValueNesting notAnInt = new JacorbValueNesting("sunInteropFix");
        org.jacorb.orb.CDRInputStream in = new ChunkedValueBytes().wstringBox(ChunkedValueBytes.SINGLE_ID).wstring("hello").stream();

        assertThat(notAnInt.chunkSizeBeforeState(in)).isEqualTo(ChunkSize.UNKNOWN);
        assertThat(notAnInt.unavailable()).contains("is a boolean, not an int");
    }
}
