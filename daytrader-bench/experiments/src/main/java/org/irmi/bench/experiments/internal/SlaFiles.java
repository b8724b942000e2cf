package org.irmi.bench.experiments.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The experiments' SLA files live in this module's resources ({@code sla/*.yaml}) as worked
 * examples; each run copies the one it uses into the results folder, so the report records the
 * exact SLA and the child JVMs read it from a plain file.
 */
public final class SlaFiles {

    private SlaFiles() {
    }

    /**
     * @param fileName e.g. {@code slow-client.yaml}
     * @return the copy in {@code <resultsDir>/sla/}
     */
    public static Path extract(Path resultsDir, String fileName) throws IOException {
        Path dir = resultsDir.resolve("sla");
        Files.createDirectories(dir);
        Path target = dir.resolve(fileName);
        try (InputStream in = SlaFiles.class.getResourceAsStream("/sla/" + fileName)) {
            if (in == null) {
                throw new IOException("SLA resource /sla/" + fileName + " is missing from the experiments jar");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }
}
