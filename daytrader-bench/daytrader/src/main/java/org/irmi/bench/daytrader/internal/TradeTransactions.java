package org.irmi.bench.daytrader.internal;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.irmi.bench.daytrader.TradeException;

/**
 * Runs units of work in transactions on a pooled {@link DataSource}: commit when the work returns,
 * roll back when it throws. A transaction the database aborts for concurrency (serialization
 * failure, deadlock, lock timeout) is tried again, up to {@value #ATTEMPTS} times in all.
 *
 * <p>THREAD-SAFE: each run takes its own connection from the pool.
 */
final class TradeTransactions {
    /** How often a transaction is tried when the database aborts it for concurrency. */
    static final int ATTEMPTS = 3;

    private final DataSource dataSource;

    TradeTransactions(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** One unit of work in a transaction. */
    @FunctionalInterface
    interface SqlWork<T> {
        T run(Connection c) throws SQLException, TradeException;
    }

    /** @return what {@code work} returned, once its transaction committed */
    <T> T run(SqlWork<T> work) throws SQLException, TradeException {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(false);
                try {
                    T result = work.run(c);
                    c.commit();
                    return result;
                } catch (SQLException | TradeException | RuntimeException e) {
                    c.rollback();
                    throw e;
                }
            } catch (SQLException e) {
                if (attempt >= ATTEMPTS || !isTransient(e)) {
                    throw e;
                }
            }
        }
    }

    /** Serialization failures, deadlocks (SQLSTATE class 40) and H2's lock timeout (HYT00). */
    private static boolean isTransient(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("40") || state.equals("HYT00"));
    }
}
