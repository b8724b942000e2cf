package org.irmi.bench.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What every experiment gets from the runner: the results folder, the run length, where progress
 * goes, and the class path to launch the experiment's separate JVMs with.
 *
 * @param resultsDir the run's folder, e.g. {@code results/20261121-010203}; raw CSV goes here
 * @param length how long each phase runs
 * @param terminal where progress bars and phase messages are printed
 * @param classPath class path for child JVMs (this module's classes and all its dependencies)
 * @param repetitions trials per ORB and condition; an experiment interleaves them (plain, I-RMI, plain, I-RMI, ...)
 *     so that a drift of the machine falls on both ORBs alike, and reports medians with min and max
 * @param repetitionsGiven whether the user gave the count ({@code --repetitions}); an experiment whose own default
 *     differs from the run length's takes a given count as it is
 */
public record RunContext(Path resultsDir, RunLength length, PrintStream terminal, String classPath, int repetitions,
                         boolean repetitionsGiven) {

    public RunContext {
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions must be at least 1, was " + repetitions);
        }
    }

    /** @return the folder for child process logs, created on demand */
    public Path logDir() {
        Path dir = resultsDir.resolve("logs");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    /** Writes one raw CSV file into the results folder (header first, one line per row). */
    public Path writeCsv(String fileName, String header, List<String> lines) {
        Path file = resultsDir.resolve(fileName);
        StringBuilder text = new StringBuilder(header).append('\n');
        lines.forEach(line -> text.append(line).append('\n'));
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file, e);
        }
        return file;
    }

    /**
     * @return this machine's 1-minute load average (from /proc/loadavg), or NaN where unknown.
     *     Recorded with each run: other processes competing for the two cores move every figure.
     */
    public static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Prints one phase message on its own line. */
    public void say(String message) {
        terminal.println("  " + message);
        terminal.flush();
    }
}
