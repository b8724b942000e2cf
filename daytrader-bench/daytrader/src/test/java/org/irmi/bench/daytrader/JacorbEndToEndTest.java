package org.irmi.bench.daytrader;

import org.junit.jupiter.api.BeforeAll;

/** DayTrader end to end on stock JacORB 3.9 (both tiers). */
class JacorbEndToEndTest extends AbstractEndToEndTest {
    @BeforeAll
    void startOnJacorb() throws Exception {
        start(OrbChoice.JACORB);
    }
}
