package org.irmi.bench.daytrader;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Options of a {@link ChildJvm}, every one but the log with a default, and {@link #start()}. Get
 * one from {@link ChildJvm#builder}.
 *
 * <p>The command is: the prefix, {@code nice -n NICENESS}, {@code taskset -c CPUS}, this JVM's
 * {@code java}, the JVM options, {@code -Djava.awt.headless=true}, {@code -cp} the class path (every
 * entry made absolute), the main class and its arguments; under a {@link CpuQuota}, everything after
 * the prefix runs inside its control group.
 */
public final class ChildJvmBuilder {
    private final String name;
    private final Class<?> mainClass;
    private List<String> prefix = List.of();
    private int niceness;
    private String cpus;
    private CpuQuota quota;
    private List<String> jvmOptions = List.of();
    private String classPath = System.getProperty("java.class.path");
    private List<String> args = List.of();
    private ChildJvm.Output output;
    private Path logFile;

    ChildJvmBuilder(String name, Class<?> mainClass) {
        this.name = Objects.requireNonNull(name, "name");
        this.mainClass = Objects.requireNonNull(mainClass, "mainClass");
    }

    /** @return the child's name, as given to {@link ChildJvm#builder} */
    public String name() {
        return name;
    }

    /** Words before the rest of the command, e.g. {@code ip netns exec <namespace>} (default none). */
    public ChildJvmBuilder prefix(List<String> prefix) {
        this.prefix = List.copyOf(prefix);
        return this;
    }

    /**
     * Runs the child at a lower CPU priority (default 0): with 19 it runs only on the CPU time its
     * CPU's other processes leave, as if it ran on a machine of its own that does not slow them down
     * (the scheduler gives a nice-19 process about 1.5% of a CPU that a nice-0 process also wants).
     */
    public ChildJvmBuilder niceness(int niceness) {
        if (niceness < 0 || niceness > 19) {
            throw new IllegalArgumentException("niceness must be in [0, 19] but is " + niceness);
        }
        this.niceness = niceness;
        return this;
    }

    /** Pins the child to these CPUs ({@code taskset -c}, e.g. {@code "0"} or {@code "0-1"}); null (the default) does not pin. */
    public ChildJvmBuilder cpus(String cpus) {
        this.cpus = cpus;
        return this;
    }

    /** Runs the child under this CPU share; null (the default) does not limit it. */
    public ChildJvmBuilder quota(CpuQuota quota) {
        this.quota = quota;
        return this;
    }

    /** Options before the class path, e.g. {@code -Xmx256m}, {@code -Dkey=value} (default none). */
    public ChildJvmBuilder jvmOptions(List<String> jvmOptions) {
        this.jvmOptions = List.copyOf(jvmOptions);
        return this;
    }

    /** The class path (default: this JVM's). */
    public ChildJvmBuilder classPath(String classPath) {
        this.classPath = Objects.requireNonNull(classPath, "classPath");
        return this;
    }

    /** The main class's arguments (default none). */
    public ChildJvmBuilder args(List<String> args) {
        this.args = List.copyOf(args);
        return this;
    }

    /**
     * Where the child's output goes, and so how it says it is ready (required).
     *
     * @param logFile its log: written here for {@link ChildJvm.Output#LINES}, by the child for
     *                {@link ChildJvm.Output#LOG_FILE}; for {@link ChildJvm.Output#STDERR_INHERITED}
     *                only named in errors
     */
    public ChildJvmBuilder output(ChildJvm.Output output, Path logFile) {
        this.output = Objects.requireNonNull(output, "output");
        this.logFile = Objects.requireNonNull(logFile, "logFile");
        return this;
    }

    /** Starts the child; it has not said it is ready yet. */
    public ChildJvm start() throws IOException {
        if (output == null) {
            throw new IllegalStateException("output(...) must be set before start(): the child's log");
        }
        String absoluteClassPath = ChildJvm.absolute(classPath);
        List<String> jvm = new ArrayList<>();
        if (niceness != 0) {
            tool("nice").ifPresent(nice -> jvm.addAll(List.of(nice, "-n", String.valueOf(niceness))));
        }
        if (cpus != null) {
            tool("taskset").ifPresent(taskset -> jvm.addAll(List.of(taskset, "-c", cpus)));
        }
        jvm.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        jvm.addAll(jvmOptions);
        jvm.add("-Djava.awt.headless=true");
        jvm.addAll(List.of("-cp", absoluteClassPath, mainClass.getName()));
        jvm.addAll(args);
        List<String> command = new ArrayList<>(prefix);
        command.addAll(quota == null ? jvm : quota.wrap(jvm));
        ProcessBuilder pb = new ProcessBuilder(command);
        PrintWriter lineLog = null;
        switch (output) {
            case LINES -> {
                lineLog = new PrintWriter(Files.newBufferedWriter(logFile, StandardCharsets.UTF_8), true);
                lineLog.println("# " + String.join(" ", command).replace(absoluteClassPath, "<classpath>"));
                pb.redirectErrorStream(true);
            }
            case LOG_FILE -> pb.redirectErrorStream(true).redirectOutput(logFile.toFile());
            case STDERR_INHERITED -> pb.redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
        }
        // stdin stays a pipe held by this JVM: children that watch it exit when it closes (--watch-stdin).
        return new ChildJvm(name, pb.start(), output, logFile, lineLog);
    }

    /** {@code /usr/bin/<tool>}, else the first on the PATH; empty (and said on stderr) when there is none. */
    private Optional<String> tool(String tool) {
        List<String> dirs = new ArrayList<>(List.of("/usr/bin"));
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(java.io.File.pathSeparator)));
        }
        for (String dir : dirs) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return Optional.of(Path.of(dir, tool).toString());
            }
        }
        System.err.println("child " + name + ": " + tool + " is not installed, so it runs without it");
        return Optional.empty();
    }
}
