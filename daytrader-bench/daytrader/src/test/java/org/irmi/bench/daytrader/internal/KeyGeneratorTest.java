package org.irmi.bench.daytrader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KeyGeneratorTest {
    private HikariDataSource pool;

    @BeforeEach
    void createTables() throws Exception {
        pool = TradeDatabase.pool("jdbc:h2:mem:keys" + System.nanoTime() + ";DB_CLOSE_DELAY=-1", null, 8);
        try (Connection c = pool.getConnection()) {
            TradeDatabase.createTables(c);
        }
    }

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void shouldHandOutConsecutiveIdsWithinABlock() throws Exception {
        KeyGenerator keys = new KeyGenerator(pool, 10);
        assertThat(List.of(keys.next("order"), keys.next("order"), keys.next("order"))).containsExactly(0L, 1L, 2L);
    }

    @Test
    void shouldNeverHandOutAnIdTwiceAcrossThreadsAndGenerators() throws Exception {
        KeyGenerator a = new KeyGenerator(pool, 7);
        KeyGenerator b = new KeyGenerator(pool, 7); // a second backend on the same database
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        List<Long> duplicates = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Exception> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            KeyGenerator keys = t % 2 == 0 ? a : b;
            threads.add(new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    try {
                        long id = keys.next("order");
                        if (!seen.add(id)) {
                            duplicates.add(id);
                        }
                    } catch (Exception e) {
                        failures.add(e);
                        return;
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(30_000);
        }
        assertThat(failures).isEmpty();
        assertThat(duplicates).isEmpty();
        assertThat(seen).hasSize(4000);
    }

    @Test
    void shouldContinueAfterTheReservedValueOfAnExistingKey() throws Exception {
        try (Connection c = pool.getConnection(); var s = c.createStatement()) {
            s.execute("INSERT INTO keygen (keyname, keyval) VALUES ('holding', 500)");
        }
        assertThat(new KeyGenerator(pool, 100).next("holding")).isEqualTo(500L);
    }
}
