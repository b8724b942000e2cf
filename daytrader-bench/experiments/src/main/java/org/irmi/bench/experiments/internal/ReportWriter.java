package org.irmi.bench.experiments.internal;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.irmi.bench.experiments.Chart;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.Goal;
import org.irmi.bench.experiments.RunContext;
import org.irmi.bench.experiments.Table;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Writes a run's report into its results folder: one PNG per chart (plain black-and-grey line
 * charts, in the style of the paper's figures), {@code summary.md} (goals and every table) and
 * {@code index.html} (the same, with the charts). Raw CSV is written by the experiments themselves.
 */
public final class ReportWriter {

    private static final Color[] LINE_COLORS = {
        Color.BLACK, new Color(0xD0, 0x30, 0x20), new Color(0x20, 0x50, 0xC0), new Color(0x30, 0x90, 0x30),
        new Color(0x90, 0x50, 0xB0), new Color(0xE0, 0x90, 0x10), Color.GRAY,
    };

    private ReportWriter() {
    }

    /** Renders one chart to {@code dir/chart.file()}. */
    public static void writeChart(Path dir, Chart chart) throws IOException {
        XYChart xy = new XYChartBuilder().width(800).height(450).title(chart.title())
                .xAxisTitle(chart.xLabel()).yAxisTitle(chart.yLabel()).build();
        Styler styler = xy.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotBorderVisible(true);
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        styler.setSeriesColors(LINE_COLORS);
        xy.getStyler().setXAxisLogarithmic(chart.logX());
        xy.getStyler().setPlotGridLinesColor(new Color(0xE0, 0xE0, 0xE0));
        if (chart.series().isEmpty()) {
            xy.addSeries("no data", new double[] {1}, new double[] {1});
        }
        for (Chart.Series series : chart.series()) {
            XYSeries line = xy.addSeries(series.name(), series.x(), series.y());
            line.setMarker(chart.logX() ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
            line.setLineStyle(new BasicStroke(1.6f));
        }
        double top = 0;
        for (Chart.Series series : chart.series()) {
            for (double y : series.y()) {
                if (Double.isFinite(y)) {
                    top = Math.max(top, y);
                }
            }
        }
        java.util.Set<String> shown = new java.util.HashSet<>();
        int index = 0;
        for (Chart.Marker marker : chart.markers()) {
            // XChart needs unique series names; several markers of one label share one legend entry.
            boolean first = shown.add(marker.label());
            XYSeries line = xy.addSeries(first ? marker.label() : marker.label() + " #" + (++index),
                    new double[] {marker.x(), marker.x()}, new double[] {0, top > 0 ? top : 1});
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(Color.GRAY);
            line.setLineStyle(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {5f, 4f}, 0f));
            line.setShowInLegend(first);
        }
        BitmapEncoder.saveBitmap(xy, dir.resolve(chart.file()).toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /**
     * @return the Markdown goal table: one row per goal, with the harm on plain JacORB, both figures as median (min to
     *     max) over the trials, and a plain "yes" or "NOT reached"
     */
    public static String goalTable(List<ExperimentResult> results) {
        StringBuilder md = new StringBuilder();
        md.append("| experiment | goal | harm on plain JacORB | plain JacORB | I-RMI | reached |\n|---|---|---|---|---|---|\n");
        for (ExperimentResult result : results) {
            for (Goal goal : result.goals()) {
                md.append("| ").append(goal.experiment()).append(" | ").append(escape(goal.statement())).append(" | ")
                        .append(escape(goal.harmText())).append(" | ").append(goal.plainText()).append(" | ")
                        .append(goal.irmiText()).append(" | ").append(goal.reached() ? "yes" : "**" + goal.verdict() + "**")
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    /** @return one table as Markdown */
    public static String markdown(Table table) {
        StringBuilder md = new StringBuilder("**").append(table.title()).append("**\n\n| ");
        md.append(String.join(" | ", table.header())).append(" |\n|");
        md.append("---|".repeat(table.header().size())).append('\n');
        for (List<String> row : table.rows()) {
            md.append("| ").append(String.join(" | ", row.stream().map(ReportWriter::escape).toList())).append(" |\n");
        }
        return md.append('\n').toString();
    }

    /**
     * Writes summary.md and index.html (and the charts).
     *
     * @param command the exact command that produced the run
     * @param failures experiments that could not run, with the reason, as Markdown bullet lines
     */
    public static void write(Path dir, String command, List<ExperimentResult> results, List<String> failures)
            throws IOException {
        StringBuilder md = new StringBuilder("# I-RMI chaos experiments: plain JacORB vs I-RMI\n\n");
        md.append("Command: `").append(command).append("`  \nFolder: `").append(dir).append("`\n\n");
        md.append("## Goals\n\n").append(goalTable(results)).append('\n');
        for (String failure : failures) {
            md.append("- ").append(failure).append('\n');
        }
        StringBuilder html = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><title>I-RMI experiments</title>"
                + "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}table{border-collapse:collapse;margin:1em 0}"
                + "td,th{border:1px solid #999;padding:4px 8px;text-align:left}.no{color:#b00;font-weight:bold}.yes{color:#070}"
                + "img{max-width:100%;border:1px solid #ddd;margin:.5em 0}</style></head><body>");
        html.append("<h1>I-RMI chaos experiments: plain JacORB vs I-RMI</h1><p>Command: <code>").append(htmlEscape(command))
                .append("</code></p><h2>Goals</h2><table><tr><th>experiment</th><th>goal</th><th>harm on plain JacORB</th>"
                        + "<th>plain JacORB</th><th>I-RMI</th><th>reached</th></tr>");
        for (ExperimentResult result : results) {
            for (Goal goal : result.goals()) {
                html.append("<tr><td>").append(goal.experiment()).append("</td><td>").append(htmlEscape(goal.statement()))
                        .append("</td><td>").append(htmlEscape(goal.harmText()))
                        .append("</td><td>").append(htmlEscape(goal.plainText())).append("</td><td>").append(htmlEscape(goal.irmiText()))
                        .append("</td><td class=\"").append(goal.reached() ? "yes\">yes" : "no\">" + htmlEscape(goal.verdict()))
                        .append("</td></tr>");
            }
        }
        html.append("</table>");
        if (!failures.isEmpty()) {
            html.append("<ul>");
            failures.forEach(f -> html.append("<li class=\"no\">").append(htmlEscape(f)).append("</li>"));
            html.append("</ul>");
        }
        for (ExperimentResult result : results) {
            md.append("## ").append(result.title()).append("\n\n");
            html.append("<h2>").append(htmlEscape(result.title())).append("</h2>");
            for (Table table : result.tables()) {
                md.append(markdown(table));
                html.append(htmlTable(table));
            }
            for (String note : result.notes()) {
                md.append("- ").append(note).append('\n');
                html.append("<p>").append(htmlEscape(note)).append("</p>");
            }
            md.append('\n');
            for (Chart chart : result.charts()) {
                writeChart(dir, chart);
                md.append("![").append(chart.title()).append("](").append(chart.file()).append(")\n\n");
                html.append("<figure><img src=\"").append(chart.file()).append("\" alt=\"").append(htmlEscape(chart.title()))
                        .append("\"></figure>");
            }
        }
        html.append("<p>Raw data: the CSV files in this folder; child process logs in <code>logs/</code>; the SLA files used in"
                + " <code>sla/</code>.</p></body></html>");
        Files.writeString(dir.resolve("summary.md"), md, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("index.html"), html, StandardCharsets.UTF_8);
    }

    /**
     * Writes the measured results as a documentation page (docs/results.md): when, on which commit
     * and by which command they were produced, on what machine, the goals and every table, without the charts (they stay in
     * the results folder, which is not committed).
     */
    public static void writeResultsDoc(Path doc, Path dir, String command, String commit, List<ExperimentResult> results,
                                       List<String> failures) throws IOException {
        StringBuilder md = new StringBuilder("# Measured results of the chaos experiments\n\n");
        md.append("Produced by `").append(command).append("` on ")
                .append(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).withNano(0)).append(" (UTC), commit `")
                .append(shortCommit(commit))
                .append("` (`results.json` has the full hash).  \n")
                .append("Machine: ").append(machine()).append(".  \n")
                .append("Full report with the charts and raw CSV: `").append(dir.getFileName()).append("/` under `results/`"
                        + " (not committed; rerun the command to get it).\n\n")
                .append("Every figure below was measured in that one run: plain JacORB and I-RMI side by side."
                        + " How each experiment is set up: [experiments.md](experiments.md).\n\n");
        md.append("## Goals\n\n").append(goalTable(results)).append('\n');
        for (String failure : failures) {
            md.append("- ").append(failure).append('\n');
        }
        for (ExperimentResult result : results) {
            md.append("## ").append(result.title()).append("\n\n");
            for (Table table : result.tables()) {
                md.append(markdown(table));
            }
            for (String note : result.notes()) {
                md.append("- ").append(note).append('\n');
            }
            md.append('\n');
        }
        Files.createDirectories(doc.toAbsolutePath().getParent());
        Files.writeString(doc, md, StandardCharsets.UTF_8);
    }

    /** A full hash shortened to 7 characters, keeping a "-dirty" suffix; anything else as it is. */
    static String shortCommit(String commit) {
        return commit.matches("[0-9a-f]{40}(-dirty)?") ? commit.substring(0, 7) + commit.substring(40) : commit;
    }

    private static String machine() {
        String cpu = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux: keep "unknown"
        }
        return Runtime.getRuntime().availableProcessors() + " x " + cpu + ", Java " + System.getProperty("java.version")
                + ", 1-minute load average at the end " + RunContext.loadAverage();
    }

    private static String htmlTable(Table table) {
        StringBuilder html = new StringBuilder("<table><caption>").append(htmlEscape(table.title())).append("</caption><tr>");
        table.header().forEach(h -> html.append("<th>").append(htmlEscape(h)).append("</th>"));
        html.append("</tr>");
        for (List<String> row : table.rows()) {
            html.append("<tr>");
            row.forEach(cell -> html.append("<td>").append(htmlEscape(cell)).append("</td>"));
            html.append("</tr>");
        }
        return html.append("</table>").toString();
    }

    private static String escape(String cell) {
        return cell.replace("|", "\\|");
    }

    private static String htmlEscape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
