package org.irmi.bench.experiments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one experiment measured: tables and charts for the report, the goals with the measured
 * value, and plain-language notes (for example why a goal was not reached).
 */
public final class ExperimentResult {

    private final String name;
    private final String title;
    private final List<Table> tables = new ArrayList<>();
    private final List<Chart> charts = new ArrayList<>();
    private final List<Goal> goals = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, Double> figures = new LinkedHashMap<>();

    /**
     * @param name the experiment's command-line name
     * @param title a human title, e.g. "Slow client (Figure 3, Tables 1-2, Figure 5)"
     */
    public ExperimentResult(String name, String title) {
        this.name = name;
        this.title = title;
    }

    public String name() { return name; }
    public String title() { return title; }
    public List<Table> tables() { return tables; }
    public List<Chart> charts() { return charts; }
    public List<Goal> goals() { return goals; }
    public List<String> notes() { return notes; }

    /**
     * Key figures by name, e.g. {@code plain.stressedRttRatio}: what the CI test compares between
     * the plain and the I-RMI case (directions, never absolute times).
     */
    public Map<String, Double> figures() { return figures; }

    /** Records one key figure (NaN when it could not be measured). */
    public ExperimentResult figure(String name, double value) { figures.put(name, value); return this; }

    public ExperimentResult table(Table table) { tables.add(table); return this; }
    public ExperimentResult chart(Chart chart) { charts.add(chart); return this; }
    public ExperimentResult goal(Goal goal) { goals.add(goal); return this; }
    public ExperimentResult note(String note) { notes.add(note); return this; }

    /** @return true when every goal was reached (and there is at least one) */
    public boolean allGoalsReached() {
        return !goals.isEmpty() && goals.stream().allMatch(Goal::reached);
    }
}
