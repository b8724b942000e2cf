package org.irmi.bench.experiments.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.Harm;
import org.irmi.bench.experiments.Spread;

/**
 * The machine-readable record of a run ({@code results.json}): for every goal the plain JacORB and
 * I-RMI figures (median, min, max over the trials), the harm factor on plain JacORB and whether it
 * was shown, whether the goal was reached, and the commit and date the run was made on.
 */
public final class ResultsJson {

    private ResultsJson() {
    }

    /**
     * @param commit the commit the run was made on (with "-dirty" when the worktree had changes)
     * @param date the run's end, ISO-8601 UTC
     * @param repetitions trials per ORB and condition
     */
    public static String render(String command, String commit, String date, int repetitions,
                                List<ExperimentResult> results, List<String> failures) {
        StringBuilder json = new StringBuilder("{\n");
        json.append("  \"command\": ").append(quote(command)).append(",\n");
        json.append("  \"commit\": ").append(quote(commit)).append(",\n");
        json.append("  \"date\": ").append(quote(date)).append(",\n");
        json.append("  \"repetitions\": ").append(repetitions).append(",\n");
        long reached = results.stream().flatMap(r -> r.goals().stream()).filter(Goal::reached).count();
        long total = results.stream().mapToLong(r -> r.goals().size()).sum();
        json.append("  \"goalsReached\": ").append(reached).append(",\n");
        json.append("  \"goalsTotal\": ").append(total).append(",\n");
        json.append("  \"failures\": [");
        for (int i = 0; i < failures.size(); i++) {
            json.append(i == 0 ? "" : ", ").append(quote(failures.get(i)));
        }
        json.append("],\n  \"goals\": [");
        boolean first = true;
        for (ExperimentResult result : results) {
            for (Goal goal : result.goals()) {
                json.append(first ? "\n" : ",\n");
                first = false;
                json.append("    {\"experiment\": ").append(quote(goal.experiment()))
                        .append(", \"id\": ").append(quote(goal.id()))
                        .append(", \"goal\": ").append(quote(goal.statement()))
                        .append(",\n     \"plain\": ").append(spread(goal.plain()))
                        .append(",\n     \"irmi\": ").append(spread(goal.irmi()))
                        .append(",\n     \"target\": {\"atLeast\": ").append(goal.bound().atLeast())
                        .append(", \"threshold\": ").append(number(goal.bound().threshold())).append('}')
                        .append(",\n     \"harm\": ").append(harm(goal.harm()))
                        .append(",\n     \"irmiMet\": ").append(goal.irmiMet())
                        .append(", \"harmShown\": ").append(goal.harmShown())
                        .append(", \"reached\": ").append(goal.reached()).append('}');
            }
        }
        json.append("\n  ]\n}\n");
        return json.toString();
    }

    /** Writes {@link #render} to the file. */
    public static void write(Path file, String command, String commit, String date, int repetitions,
                             List<ExperimentResult> results, List<String> failures) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, render(command, commit, date, repetitions, results, failures), StandardCharsets.UTF_8);
    }

    /**
     * The commit a run is made on: {@code -Dirmi.commit} when the launcher set it (the {@code irmi} script
     * reads it at launch, before it builds, so a commit made while the run builds or runs is not named
     * for it), else {@code git rev-parse HEAD} of the working directory now.
     *
     * @return the commit, with "-dirty" for uncommitted changes to tracked files, or "unknown"
     */
    public static String commit() {
        String atLaunch = System.getProperty("irmi.commit", "");
        if (!atLaunch.isBlank()) {
            return atLaunch.trim();
        }
        try {
            String head = run("git", "rev-parse", "HEAD");
            String status = run("git", "status", "--porcelain", "--untracked-files=no");
            return head.isEmpty() ? "unknown" : head + (status.isEmpty() ? "" : "-dirty");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return process.waitFor() == 0 ? out : "";
    }

    private static String harm(Harm harm) {
        if (harm == null) {
            return "null";
        }
        return "{\"description\": " + quote(harm.description()) + ", \"factor\": " + spread(harm.plain())
                + ", \"atLeast\": " + harm.bound().atLeast() + ", \"threshold\": " + number(harm.bound().threshold())
                + ", \"shown\": " + harm.shown() + "}";
    }

    private static String spread(Spread spread) {
        if (spread == null) {
            return "null";
        }
        return "{\"median\": " + number(spread.median()) + ", \"min\": " + number(spread.min()) + ", \"max\": "
                + number(spread.max()) + ", \"n\": " + spread.n() + ", \"trials\": " + spread.trials() + "}";
    }

    private static String number(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.4g", v).replaceAll("(\\.\\d*?)0+(e|$)", "$1$2")
                .replace(".e", "e").replaceAll("\\.$", "") : "null";
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
