package org.irmi.bench.experiments;

/**
 * One of the paper's chaos experiments. An experiment runs its scenario twice in the same
 * invocation, first on plain JacORB and then on I-RMI with its SLA, and returns the measured
 * outcome for the report.
 *
 * <p>THREADING: called from the runner's main thread only; an experiment starts and stops all the
 * processes it needs before it returns.
 */
public interface Experiment {

    /** @return the short name used on the command line, e.g. {@code slow-client} */
    String name();

    /**
     * Runs the experiment.
     *
     * @param context where to write raw data, how long to run, and the terminal to report progress to
     * @return tables, charts, goals and notes for the report; never null
     * @throws Exception when the experiment could not run at all (the runner records it as failed)
     */
    ExperimentResult run(RunContext context) throws Exception;
}
