package org.irmi.bench.daytrader;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;

/** DayTrader end to end on the I-RMI ORB (both tiers); skipped with a message while irmi-orb lacks IrmiORB. */
class IrmiEndToEndTest extends AbstractEndToEndTest {
    @BeforeAll
    void startOnIrmi() throws Exception {
        assumeTrue(OrbChoice.IRMI.isAvailable(), "org.irmi.orb.IrmiORB is not on the class path; skipping the I-RMI run");
        start(OrbChoice.IRMI);
    }
}
