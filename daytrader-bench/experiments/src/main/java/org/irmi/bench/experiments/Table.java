package org.irmi.bench.experiments;

import java.util.ArrayList;
import java.util.List;

/**
 * A table of the report, e.g. the paper's Table 1. Cells are preformatted strings.
 *
 * @param title caption
 * @param header column names
 * @param rows one list of cells per row, each as long as the header
 */
public record Table(String title, List<String> header, List<List<String>> rows) {

    /** @return a table with the given caption and columns and no rows yet */
    public static Table of(String title, String... header) {
        return new Table(title, List.of(header), new ArrayList<>());
    }

    /** Appends one row; the number of cells must match the header. */
    public Table row(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("table '" + title + "': row has " + cells.length
                    + " cells but the header has " + header.size());
        }
        rows.add(List.of(cells));
        return this;
    }
}
