package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both readiness signals of a real child JVM: a stdout line, and a ready file. */
class ChildJvmTest {

    @TempDir
    Path dir;

    /** The child: {@code lines} prints {@code IOR ior-1} and exits on {@code stop}; {@code file P} writes P and waits for stdin to close. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (args[0].equals("lines")) {
                System.out.println("IOR ior-1");
                System.out.flush();
                String line;
                while ((line = in.readLine()) != null && !line.equals("stop")) {
                    System.out.println("ECHO " + line);
                    System.out.flush();
                }
            } else {
                Path ready = Path.of(args[1]);
                Path tmp = ready.resolveSibling("ready.tmp");
                Files.writeString(tmp, "port=8080\n");
                Files.move(tmp, ready, StandardCopyOption.ATOMIC_MOVE);
                while (in.readLine() != null) {
                    // until the parent closes stdin or terminates this JVM
                }
            }
        }
    }

    @Test
    void shouldReturnTheRestOfTheLineWhenALinesChildPrintsItsPrefix() throws Exception {
        try (ChildJvm child = ChildJvm.builder("lines-child", Child.class).args(List.of("lines"))
                .output(ChildJvm.Output.LINES, dir.resolve("lines-child.log")).start()) {
            assertThat(child.awaitLine("IOR", 30_000)).isEqualTo("ior-1");
            child.send("hello");
            assertThat(child.awaitLine("ECHO", 10_000)).isEqualTo("hello");
            assertThat(child.linesWith("ECHO")).containsExactly("hello");
            child.stop(5_000);
            assertThat(child.alive()).isFalse();
        }
        assertThat(Files.readString(dir.resolve("lines-child.log"))).contains("IOR ior-1", "# exited");
    }

    @Test
    void shouldReadTheReadyFileWhenALogFileChildWritesIt() throws Exception {
        Path ready = dir.resolve("child.ready");
        ChildJvm child = ChildJvm.builder("file child", Child.class).args(List.of("file", ready.toString()))
                .output(ChildJvm.Output.LOG_FILE, dir.resolve("file-child.log")).start();
        try {
            assertThat(child.awaitReadyFile(ready, Duration.ofSeconds(30)).getProperty("port")).isEqualTo("8080");
            assertThatThrownBy(() -> child.awaitLine("IOR", 1_000)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Output.LINES");
        } finally {
            child.stop(10_000);
        }
        assertThat(child.alive()).isFalse();
    }

    @Test
    void shouldQuoteTheLogWhenTheChildExitsBeforeItIsReady() throws Exception {
        ChildJvm child = ChildJvm.builder("broken child", Child.class).args(List.of())
                .output(ChildJvm.Output.LOG_FILE, dir.resolve("broken.log")).start();
        assertThatThrownBy(() -> child.awaitReadyFile(dir.resolve("never.ready"), Duration.ofSeconds(30)))
                .hasMessageStartingWith("the broken child exited with status 1 before it was ready")
                .hasMessageContaining("ArrayIndexOutOfBoundsException");
    }
}
