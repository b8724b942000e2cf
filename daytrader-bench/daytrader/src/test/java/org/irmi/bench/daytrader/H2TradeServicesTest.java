package org.irmi.bench.daytrader;

/** The service operations on embedded H2, the default database. */
class H2TradeServicesTest extends AbstractTradeServicesTest {
    private final String name = "svc" + System.nanoTime();

    @Override
    String jdbcUrl() {
        return "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    }

    @Override
    String schema() {
        return null;
    }
}
