package org.irmi.bench.daytrader;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import org.irmi.bench.daytrader.internal.TradeDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The service operations on PostgreSQL at 127.0.0.1:5432 (db {@code test}, user postgres), in a
 * schema of their own that is dropped afterwards. Skipped, with a message, when PostgreSQL is not
 * reachable (override with {@code -Ddaytrader.pg.url=...}).
 */
class PostgresTradeServicesTest extends AbstractTradeServicesTest {
    static final String URL = System.getProperty("daytrader.pg.url", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    static final String SCHEMA = "dt_test_" + ProcessHandle.current().pid();

    @BeforeAll
    static void requirePostgres() {
        boolean up;
        try (Connection c = DriverManager.getConnection(URL + "&connectTimeout=2")) {
            up = c.isValid(2);
        } catch (Exception e) {
            up = false;
            System.err.println("PostgresTradeServicesTest SKIPPED: PostgreSQL not reachable at " + URL + ": " + e.getMessage());
        }
        assertTrue(up, "PostgreSQL not reachable at " + URL + ": the service tests run on PostgreSQL too; start it (the machine runs it on 127.0.0.1:5432, trust auth, database test) or point -Ddaytrader.pg.url at one");
    }

    @AfterAll
    static void dropSchema() throws Exception {
        try {
            TradeDatabase.dropSchema(URL, SCHEMA);
        } catch (Exception e) {
            // nothing to drop when PostgreSQL was not reachable
        }
    }

    @Override
    String jdbcUrl() {
        return URL;
    }

    @Override
    String schema() {
        return SCHEMA;
    }
}
