package org.irmi.bench.experiments;

import java.util.ArrayList;
import java.util.List;

/**
 * A line chart in the style of the paper's figures: one or more series over a shared x axis.
 *
 * @param file file name of the PNG inside the results folder, e.g. {@code slow-client-fig5.png}
 * @param title caption, e.g. "Figure 5: call rates measured at the primary server"
 * @param xLabel x axis label with its unit
 * @param yLabel y axis label with its unit
 * @param logX whether the x axis is logarithmic (message sizes)
 * @param series the lines
 * @param markers vertical lines marking events (stress on, poison calls)
 */
public record Chart(String file, String title, String xLabel, String yLabel, boolean logX, List<Series> series,
                    List<Marker> markers) {

    /** @return a chart with no series yet */
    public static Chart of(String file, String title, String xLabel, String yLabel, boolean logX) {
        return new Chart(file, title, xLabel, yLabel, logX, new ArrayList<>(), new ArrayList<>());
    }

    /** Adds a vertical dashed line at {@code x}, e.g. where the stress starts. */
    public Chart marker(String label, double x) {
        markers.add(new Marker(label, x));
        return this;
    }

    /**
     * A vertical line marking an event on the x axis.
     *
     * @param label legend label
     * @param x where
     */
    public record Marker(String label, double x) {
    }

    /** Adds one line (ignored when it has no points, so charts of skipped cases still render). */
    public Chart line(String name, double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("series '" + name + "': " + x.length + " x values but " + y.length + " y values");
        }
        if (x.length > 0) {
            series.add(new Series(name, x, y));
        }
        return this;
    }

    /**
     * One line of a chart.
     *
     * @param name legend label
     * @param x x values
     * @param y y values, same length as x
     */
    public record Series(String name, double[] x, double[] y) {
    }
}
