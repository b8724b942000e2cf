package org.irmi.bench.experiments.internal.poison;

import org.irmi.bench.experiments.Experiment;
import org.irmi.bench.experiments.ExperimentResult;
import org.irmi.bench.experiments.RunContext;

/** The paper's poison-message experiment on DayTrader (section 3.2, Figures 6-7). */
public final class PoisonExperiment implements Experiment {

    @Override
    public String name() {
        return "poison";
    }

    @Override
    public ExperimentResult run(RunContext context) throws Exception {
        throw new IllegalStateException("the DayTrader harness is not available yet");
    }
}
