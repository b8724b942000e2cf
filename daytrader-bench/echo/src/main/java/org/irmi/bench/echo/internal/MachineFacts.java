package org.irmi.bench.echo.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/** Facts about this machine and its software, for the benchmark report. */
public final class MachineFacts {

    private MachineFacts() {
    }

    /** The CPU model name, or "unknown". */
    public static String cpuModel() {
        return grep("/proc/cpuinfo", "model name").orElse("unknown");
    }

    /** Total memory in MiB, or -1. */
    public static long memTotalMb() {
        return grep("/proc/meminfo", "MemTotal").map(v -> Long.parseLong(v.split("\\s+")[0]) / 1024).orElse(-1L);
    }

    /** The kernel release. */
    public static String kernel() {
        return read("/proc/sys/kernel/osrelease").orElse(System.getProperty("os.version")).trim();
    }

    /** The 1, 5 and 15 minute load averages. */
    public static String loadAverage() {
        String s = read("/proc/loadavg").orElse("? ? ?");
        String[] f = s.trim().split("\\s+");
        return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : s.trim();
    }

    /** The soft limit on open files of this process (its children inherit it), or -1. */
    public static long openFilesSoftLimit() {
        return read("/proc/self/limits").flatMap(text -> text.lines()
                .filter(l -> l.startsWith("Max open files"))
                .map(l -> l.substring("Max open files".length()).trim().split("\\s+")[0])
                .findFirst())
                .map(v -> v.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(v)).orElse(-1L);
    }

    /** The Java runtime. */
    public static String java() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
    }

    /** JacORB's version from its Maven metadata, or "unknown". */
    public static String jacorbVersion() {
        try (InputStream in = MachineFacts.class.getResourceAsStream("/META-INF/maven/org.jacorb/jacorb/pom.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** omniORB's version from pkg-config, or "unknown". */
    public static String omniOrbVersion() {
        try {
            Processes.Result r = Processes.run(List.of("pkg-config", "--modversion", "omniORB4"), null,
                    Duration.ofSeconds(10));
            return r.exitCode() == 0 ? r.output().trim() : "unknown";
        } catch (RuntimeException e) {
            return "unknown";
        }
    }

    private static java.util.Optional<String> grep(String file, String key) {
        return read(file).flatMap(text -> text.lines().filter(l -> l.startsWith(key))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst());
    }

    private static java.util.Optional<String> read(String file) {
        try {
            return java.util.Optional.of(Files.readString(Path.of(file)));
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
