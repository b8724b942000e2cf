package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The ORB's own packages ({@code org.irmi.orb} and {@code org.irmi.orb.internal} with its
 * sub-packages) do not know the isolation glue: it plugs itself in as an {@link OrbExtension}. The
 * compiled classes are checked because they hold every class the code uses (as names in the
 * constant pool); the sources too, because a constant such as {@code OrbIsolation.SLA_PROPERTY} is
 * copied into the class that reads it and leaves no name behind.
 */
class PackageLayeringTest {

    private static final String ISOLATION = "org.irmi.orb.isolation";

    /** target/classes of this module, where {@link IrmiORB} was loaded from. */
    private static Path classes() {
        try {
            return Path.of(IrmiORB.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The files ending in {@code suffix} of the root package (not its sub-packages) and of internal/, under {@code root}. */
    private static List<Path> orbFiles(Path root, String suffix) throws IOException {
        Path orb = root.resolve("org/irmi/orb");
        List<Path> files = new ArrayList<>();
        try (Stream<Path> top = Files.list(orb); Stream<Path> internal = Files.walk(orb.resolve("internal"))) {
            Stream.concat(top, internal).filter(f -> f.toString().endsWith(suffix)).forEach(files::add);
        }
        return files;
    }

    /** The files among {@code files} whose bytes contain {@code text} (ASCII). */
    private static List<String> containing(List<Path> files, String text) {
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            try {
                if (new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(text)) {
                    found.add(f.getFileName().toString());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return found;
    }

    @Test
    void shouldFindNoIsolationClassInTheCompiledRootAndInternalPackages() throws IOException {
        List<Path> compiled = orbFiles(classes(), ".class");

        assertThat(compiled).as("the classes scanned").extracting(f -> f.getFileName().toString())
                .contains("IrmiORB.class", "OrbExtension.class", "IrmiOrbInitializer.class", "ClientHookInterceptor.class");
        assertThat(containing(compiled, "org/irmi/orb/internal/")).as("the scan sees class names in constant pools")
                .contains("IrmiORB.class");
        assertThat(containing(compiled, ISOLATION.replace('.', '/'))).isEmpty();
        assertThat(containing(compiled, ISOLATION)).as("class names in strings").isEmpty();
    }

    @Test
    void shouldNameNoIsolationTypeInTheRootAndInternalSources() throws IOException {
        Path sources = classes().getParent().getParent().resolve("src/main/java");
        List<Path> files = orbFiles(sources, ".java");

        assertThat(files).as("the sources scanned").extracting(f -> f.getFileName().toString())
                .contains("IrmiORB.java", "IrmiOrbInitializer.java");
        assertThat(containing(files, ISOLATION)).isEmpty();
    }
}
