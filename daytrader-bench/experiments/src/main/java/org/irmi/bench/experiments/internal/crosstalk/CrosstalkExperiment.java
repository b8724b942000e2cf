package org.irmi.bench.experiments.internal.crosstalk;

import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.RunContext;

/** The paper's QoS crosstalk experiment (section 3.3, Figures 8-9). */
public final class CrosstalkExperiment implements Experiment {

    @Override
    public String name() {
        return "crosstalk";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        throw new IllegalStateException("not written yet");
    }
}
