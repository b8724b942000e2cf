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
import java.util.concurrent.Callable;

import org.irmi.bench.experiments.internal.OrbKind;
import org.irmi.bench.experiments.internal.ReportWriter;
import org.irmi.bench.experiments.internal.ResultsJson;
import org.irmi.bench.experiments.internal.crosstalk.CrosstalkExperiment;
import org.irmi.bench.experiments.internal.normalday.NormalDayExperiment;
import org.irmi.bench.experiments.internal.poison.PoisonExperiment;
import org.irmi.bench.experiments.internal.slowclient.SlowClientExperiment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command; {@code execute(args)} runs the experiments (or prints the help). */
    public static CommandLine commandLine() {
        return new CommandLine(new Cli());
    }

    /** The command line of {@code ./irmi experiments}; {@link #call()} runs them. */
    @Command(name = "./irmi experiments", sortOptions = false, usageHelpAutoWidth = true,
            // One paragraph per element: picocli wraps each to the terminal's width (80 columns when piped).
            description = {"Runs the paper's chaos experiments and the normal day, each on stock JacORB and on I-RMI, "
                    + "writes the report to results/<timestamp>/ (index.html, results.json) and prints the goal summary.",
                    "Default: the paper's durations, 3 interleaved trials per ORB and condition (--quick: 1)."},
            footer = {"", "Exit status: 0 every experiment ran (goals reached or not: the report says which), "
                    + "1 one could not run, 2 bad option. More: docs/experiments.md."})
    static final class Cli implements Callable<Integer> {
        @Parameters(paramLabel = "EXPERIMENT", arity = "0..*",
                description = "normal-day, poison, slow-client or crosstalk (default: all four, in this order).")
        private List<String> names = new ArrayList<>();

        @Option(names = "--quick", description = "Everything in under 5 minutes.")
        private boolean quick;

        @Option(names = "--tiny", description = "Seconds each: the CI configuration.")
        private boolean tiny;

        @Option(names = "--repetitions", paramLabel = "N", description = "Interleaved trials per ORB and condition, 1 to 20.")
        private Integer repetitions;

        @Option(names = "--out", paramLabel = "DIR", description = "The report's folder (default: results/<timestamp>/).")
        private Path out;

        @Option(names = "--update-docs", description = "Also write the documentation's results page, docs/results.md and docs/results.json.")
        private boolean updateDocs;

        @Option(names = "--results-doc", paramLabel = "FILE",
                description = "Also write FILE (a results page elsewhere than docs/) and FILE's .json beside it.")
        private Path resultsDoc;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
        private boolean help;

        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            for (String name : names) {
                if (!experiments().containsKey(name)) {
                    throw new ParameterException(spec.commandLine(), "unknown experiment '" + name + "'; the experiments are "
                            + String.join(", ", experiments().keySet()));
                }
            }
            if (repetitions != null && (repetitions < 1 || repetitions > 20)) {
                throw new ParameterException(spec.commandLine(), "--repetitions must be 1 to 20, got " + repetitions);
            }
            if (updateDocs && resultsDoc != null) {
                throw new ParameterException(spec.commandLine(), "--results-doc and --update-docs: give one");
            }
            Path page = updateDocs ? RESULTS_DOC : resultsDoc;
            System.setProperty("java.awt.headless", "true");
            RunLength length = tiny ? RunLength.TINY : quick ? RunLength.QUICK : RunLength.FULL;
            List<String> chosen = names.isEmpty() ? List.copyOf(experiments().keySet()) : names;
            Path dir = out != null ? out
                    : Path.of("results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            String command = ("./irmi experiments " + String.join(" ", spec.commandLine().getParseResult().originalArgs())).trim();
            Report report = run(chosen, length, repetitions == null ? 0 : repetitions, dir.toAbsolutePath(),
                    System.out, command);
            if (page != null) {
                ReportWriter.writeResultsDoc(page, report.dir(), command, report.commit(), report.results(), report.failures());
                Path json = page.resolveSibling(page.getFileName().toString().replaceFirst("\\.md$", "") + ".json");
                ResultsJson.write(json, command, report.commit(), report.date(), report.repetitions(), report.results(),
                        report.failures());
                System.out.println("results written to " + page + " and " + json);
            }
            return report.failures().isEmpty() ? 0 : 1;
        }
    }

    /** What one invocation produced. */
    public record Report(Path dir, List<ExperimentResult> results, List<String> failures, String summary,
                         int repetitions, String commit, String date) {
    }

    /**
     * Runs the named experiments and writes the report. Used by {@link #main} and by the CI test.
     *
     * @param repetitions trials per ORB and condition; 0 for the defaults (the run length's, and an experiment's own)
     *
     * @return the results and the failures (an experiment that threw is recorded, the others still run)
     */
    public static Report run(List<String> names, RunLength length, int repetitions, Path dir, PrintStream terminal,
                             String command) throws Exception {
        Files.createDirectories(dir);
        String classPath = childClassPath();
        String commit = ResultsJson.commit();
        boolean given = repetitions != 0;
        repetitions = given ? repetitions : length.repetitions();
        RunContext context = new RunContext(dir, length, terminal, classPath, repetitions, given);
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
}
