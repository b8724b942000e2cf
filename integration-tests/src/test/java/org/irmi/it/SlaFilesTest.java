package org.irmi.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.irmi.sla.Sla;
import org.junit.jupiter.api.Test;

/** The end-to-end tests' SLA files are SLAs an operator could ship: each one loads without error. */
class SlaFilesTest {

    @Test
    void shouldLoadEveryTestSlaFileWhenValidatedLikeTheOrbDoes() throws IOException {
        Path dir = Nodes.sla("poison.yaml").getParent();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(13);
        for (Path f : files) {
            Sla sla = Sla.load(f); // throws SlaException with file:line:col for any error
            assertThat(sla.service()).as(f.getFileName().toString()).isNotBlank();
            assertThat(sla.isolationPoints().slowClient().isPresent() || sla.isolationPoints().poison().isPresent()
                    || sla.isolationPoints().crosstalk().isPresent()).as(f + " installs a point").isTrue();
        }
    }
}
