package org.irmi.bench.daytrader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Finds the {@code httperf} binary on the PATH; when it is missing, runs {@code scripts/prereqs.sh}
 * (found from the working directory upwards) once and looks again, and otherwise throws
 * {@link HttperfMissingException} naming {@link Httperf#INSTALL_COMMAND}.
 */
final class HttperfBinary {

    private HttperfBinary() {
    }

    /** The httperf binary's path; installs it through scripts/prereqs.sh if it can. */
    static String locate() throws IOException, InterruptedException {
        String found = onPath("httperf");
        if (found != null) {
            return found;
        }
        Path prereqs = findPrereqs();
        if (prereqs != null) {
            Process p = new ProcessBuilder(prereqs.toString()).inheritIO().start();
            if (p.waitFor(10, TimeUnit.MINUTES) && p.exitValue() == 0) {
                found = onPath("httperf");
                if (found != null) {
                    return found;
                }
            } else {
                p.destroyForcibly();
            }
        }
        throw new HttperfMissingException("httperf is not installed and could not be installed here. Run: "
                + Httperf.INSTALL_COMMAND);
    }

    private static String onPath(String name) {
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/bin:/usr/local/bin" : path).split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    private static Path findPrereqs() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("scripts").resolve("prereqs.sh");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
