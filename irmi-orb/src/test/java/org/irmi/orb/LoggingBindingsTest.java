package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Dropping I-RMI into a JacORB application leaves its logging as it was, whichever slf4j it logs
 * through: JacORB applications on slf4j 1.7 (with {@code slf4j-jdk14}, JacORB 3.9's own choice, and
 * with {@code slf4j-simple} 1.7) and one on slf4j 2 (with {@code slf4j-simple} 2) each run in a JVM of
 * their own, with I-RMI's classes and its runtime class path ahead of the application's slf4j jars,
 * and both JacORB's and I-RMI's log lines appear. The jars are those the build put in
 * {@code target/slf4j-cases/} (irmi-orb's pom).
 */
class LoggingBindingsTest {

    private static final Path TARGET = Paths.get("target");
    private static final String JACORB_LINE = "ORB shutdown complete";
    private static final String IRMI_LINE = "irmi transports: [" + org.irmi.orb.internal.SelectorFactories.class.getName() + "]";

    @Test
    void shouldLogJacorbAndIrmiThroughTheApplicationsSlf4j17JdkBinding() throws Exception {
        String out = runProbe(jars("1.7-jdk14"));

        assertThat(out).contains("PROBE DONE", JACORB_LINE, IRMI_LINE).doesNotContain("no-operation");
    }

    @Test
    void shouldLogJacorbAndIrmiThroughTheApplicationsSlf4j17SimpleBinding() throws Exception {
        String out = runProbe(jars("1.7-simple"));

        assertThat(out).contains("PROBE DONE", JACORB_LINE, IRMI_LINE).doesNotContain("no-operation");
    }

    @Test
    void shouldLogJacorbAndIrmiThroughTheApplicationsSlf4j2Provider() throws Exception {
        String out = runProbe(jars("2-simple"));

        assertThat(out).contains("PROBE DONE", JACORB_LINE, IRMI_LINE).doesNotContain("no-operation");
    }

    @Test
    void shouldBringNoSlf4jApiOnItsRuntimeClassPath() throws IOException {
        assertThat(runtimeClassPath()).isNotEmpty().noneMatch(jar -> jar.getFileName().toString().startsWith("slf4j-"));
    }

    @Test
    void shouldFindNoBindingWhenAnSlf4j2ApiStandsAheadOfAnSlf4j17Binding() throws Exception {
        // what an slf4j-api 2 ahead of the application's class path did: the 1.7 binding is ignored
        List<Path> application = new ArrayList<>(jars("2-simple").stream().filter(j -> j.toString().contains("slf4j-api")).toList());
        application.addAll(jars("1.7-jdk14").stream().filter(j -> !j.toString().contains("slf4j-api")).toList());

        String out = runProbe(application);

        assertThat(out).contains("PROBE DONE", "no-operation").doesNotContain(JACORB_LINE, IRMI_LINE);
    }

    /** Runs {@link LoggingProbeMain} with I-RMI ahead of {@code applicationJars}; its output, once it ended by itself. */
    private static String runProbe(List<Path> applicationJars) throws Exception {
        List<Path> cp = new ArrayList<>();
        cp.add(TARGET.resolve("classes"));
        cp.addAll(runtimeClassPath());
        cp.addAll(applicationJars);
        cp.add(TARGET.resolve("test-classes"));
        String classPath = String.join(File.pathSeparator, cp.stream().map(Path::toString).toList());
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        // INFO for slf4j-simple: test-classes' simplelogger.properties (warn, JacORB error) would hide both lines
        Process child = new ProcessBuilder(java.toString(), "-Xmx256m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-Dorg.slf4j.simpleLogger.log.org.jacorb=info", "-cp", classPath, LoggingProbeMain.class.getName())
                .redirectErrorStream(true).start();
        child.getOutputStream().close();
        byte[] bytes;
        try {
            bytes = child.getInputStream().readAllBytes();
        } finally {
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        String out = new String(bytes, StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(out).isZero();
        return out;
    }

    private static List<Path> runtimeClassPath() throws IOException {
        String line = Files.readString(TARGET.resolve("runtime-classpath.txt")).trim();
        return Arrays.stream(line.split(File.pathSeparator)).filter(s -> !s.isBlank()).map(Paths::get).toList();
    }

    /** The application's slf4j-api and binding of one case: a folder of target/slf4j-cases/. */
    private static List<Path> jars(String slf4jCase) throws IOException {
        try (Stream<Path> files = Files.list(TARGET.resolve("slf4j-cases").resolve(slf4jCase))) {
            List<Path> jars = files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
            assertThat(jars).as("the build copies slf4j-api and a binding into target/slf4j-cases/" + slf4jCase).hasSize(2);
            return jars;
        }
    }
}
