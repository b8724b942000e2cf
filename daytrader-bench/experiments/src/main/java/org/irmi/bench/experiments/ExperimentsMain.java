package org.irmi.bench.experiments;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.ReportWriter;
import org.irmi.bench.experiments.internal.ResultsJson;
import org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment;
import org.irmi.bench.experiments.internal.normalday.NormalDayExperiment;
import org.irmi.bench.experiments.internal.poison.PoisonExperiment;
import org.irmi.bench.experiments.internal.slowclient.SlowClientExperiment;

/**
 * {@code ./irmi experiments [normal-day|poison|slow-client|crosstalk] [--quick] [--tiny] [--out DIR]
 * [--update-docs | --results-doc FILE]}: runs the paper's chaos experiments (all, or the named ones),
 * each on plain JacORB and then on I-RMI, writes the report into {@code results/<timestamp>/} and
 * prints the goal summary. {@code --update-docs} also writes the documentation's results page
 * ({@code docs/results.md} and {@code docs/results.json}); {@code --results-doc FILE} writes it elsewhere.
 *
 * <p>Exit status: 0 when every experiment ran (goals reached or not: the report says which),
 * 1 when one could not run, 2 on bad arguments.
 */
public final class ExperimentsMain {

    /** The documentation's results page, which {@code --update-docs} writes (relative to the checkout's root). */
    public static final Path RESULTS_DOC = Path.of("docs", "results.md");

    private ExperimentsMain() {
    }

    /** @return every experiment, by command-line name, in the order they run */
    public static Map<String, Experiment> experiments() {
        Map<String, Experiment> all = new LinkedHashMap<>();
        for (Experiment experiment : List.of(new NormalDayExperiment(), new PoisonExperiment(), new SlowClientExperiment(),
                new CrosstalkExperiment())) {
            all.put(experiment.name(), experiment);
        }
        return all;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        RunLength length = RunLength.FULL;
        Path out = null;
        Path resultsDoc = null;
        int repetitions = 0;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> length = RunLength.QUICK;
                case "--tiny" -> length = RunLength.TINY;
                case "--out" -> {
                    if (i + 1 >= args.length) {
                        usage("--out needs a folder");
                    }
                    out = Path.of(args[++i]);
                }
                case "--results-doc" -> {
                    if (i + 1 >= args.length) {
                        usage("--results-doc needs a file, e.g. docs/results.md");
                    }
                    if (resultsDoc != null) {
                        usage("--results-doc and --update-docs: give one");
                    }
                    resultsDoc = Path.of(args[++i]);
                }
                case "--update-docs" -> {
                    if (resultsDoc != null) {
                        usage("--results-doc and --update-docs: give one");
                    }
                    resultsDoc = RESULTS_DOC;
                }
                case "--repetitions" -> {
                    if (i + 1 >= args.length) {
                        usage("--repetitions needs a number, e.g. 3");
                    }
                    try {
                        repetitions = Integer.parseInt(args[++i]);
                    } catch (NumberFormatException e) {
                        usage("--repetitions needs a whole number, got '" + args[i] + "'");
                    }
                    if (repetitions < 1 || repetitions > 20) {
                        usage("--repetitions must be 1 to 20, got " + repetitions);
                    }
                }
                case "-h", "--help" -> {
                    usage(null);
                }
                default -> {
                    if (!experiments().containsKey(args[i])) {
                        usage("unknown experiment or option '" + args[i] + "'");
                    }
                    names.add(args[i]);
                }
            }
        }
        if (names.isEmpty()) {
            names.addAll(experiments().keySet());
        }
        if (out == null) {
            out = Path.of("results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        String command = "./irmi experiments " + String.join(" ", args);
        Report report = run(names, length, repetitions == 0 ? length.repetitions() : repetitions, out.toAbsolutePath(),
                System.out, command.trim());
        if (resultsDoc != null) {
            ReportWriter.writeResultsDoc(resultsDoc, report.dir(), command.trim(), report.commit(), report.results(),
                    report.failures());
            Path json = resultsDoc.resolveSibling(resultsDoc.getFileName().toString().replaceFirst("\\.md$", "") + ".json");
            ResultsJson.write(json, command.trim(), report.commit(), report.date(), report.repetitions(), report.results(),
                    report.failures());
            System.out.println("results written to " + resultsDoc + " and " + json);
        }
        System.exit(report.failures().isEmpty() ? 0 : 1);
    }

    /** What one invocation produced. */
    public record Report(Path dir, List<ExperimentResult> results, List<String> failures, String summary,
                         int repetitions, String commit, String date) {
    }

    /**
     * Runs the named experiments and writes the report. Used by {@link #main} and by the CI test.
     *
     * @return the results and the failures (an experiment that threw is recorded, the others still run)
     */
    public static Report run(List<String> names, RunLength length, int repetitions, Path dir, PrintStream terminal,
                             String command) throws Exception {
        Files.createDirectories(dir);
        String classPath = childClassPath();
        String commit = ResultsJson.commit();
        RunContext context = new RunContext(dir, length, terminal, classPath, repetitions);
        terminal.println("I-RMI chaos experiments (" + length.name().toLowerCase() + ", " + repetitions
                + (repetitions == 1 ? " trial" : " interleaved trials") + " per ORB and condition, commit " + commit + "): "
                + String.join(", ", names)
                + (OrbKind.irmiAvailable() ? "" : "  [I-RMI ORB not on the class path: plain JacORB only]"));
        terminal.println("results: " + dir);
        List<ExperimentResult> results = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (String name : names) {
            Experiment experiment = experiments().get(name);
            terminal.println("== " + name);
            long start = System.nanoTime();
            try {
                results.add(experiment.run(context));
            } catch (Exception | Error e) {
                failures.add(name + " could not run: " + e);
                terminal.println("  FAILED: " + e);
                e.printStackTrace(terminal);
            }
            terminal.printf("  (%s took %d s)%n", name, (System.nanoTime() - start) / 1_000_000_000L);
        }
        String date = java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).withNano(0).toString();
        ReportWriter.write(dir, command, results, failures);
        ResultsJson.write(dir.resolve("results.json"), command, commit, date, repetitions, results, failures);
        String summary = ReportWriter.goalTable(results);
        terminal.println();
        terminal.println(summary);
        failures.forEach(f -> terminal.println("FAILED: " + f));
        long reached = results.stream().flatMap(r -> r.goals().stream()).filter(Goal::reached).count();
        long total = results.stream().mapToLong(r -> r.goals().size()).sum();
        terminal.println(reached + " of " + total + " goals reached. Report: " + dir.resolve("index.html"));
        return new Report(dir, results, failures, summary, repetitions, commit, date);
    }

    /** The class path child JVMs get: this JVM's, or Surefire's test class path under tests. */
    static String childClassPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        if (surefire != null && !surefire.isBlank()) {
            return surefire;
        }
        return System.getProperty("java.class.path");
    }

    private static void usage(String error) {
        PrintStream out = error == null ? System.out : System.err;
        if (error != null) {
            out.println("irmi experiments: " + error);
        }
        out.println("usage: ./irmi experiments [normal-day|poison|slow-client|crosstalk]... [--quick] [--repetitions N] [--out DIR]");
        out.println("                          [--update-docs | --results-doc FILE]");
        out.println("  no name: all four experiments;  --quick: everything in under 5 minutes;");
        out.println("  default: the paper's durations, 3 interleaved trials per ORB and condition (--quick: 1).");
        out.println("  The report goes to results/<timestamp>/ (with results.json); --update-docs also writes docs/results.md and");
        out.println("  docs/results.json (the documentation's results page), --results-doc F writes F and F's .json instead.");
        System.exit(error == null ? 0 : 2);
    }
}
