package org.irmi.bench.daytrader.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Hands out ids in blocks, as DayTrader's KEYGEN table does: a block of {@code blockSize} ids is
 * reserved by one committed {@code UPDATE keygen SET keyval = keyval + blockSize}, so several
 * backends (or restarts) never hand out the same id, and only one statement in
 * {@code blockSize} ids touches the database.
 *
 * <p>THREAD-SAFE: each key name has its own block guarded by that block's monitor. Call
 * {@link #next} BEFORE opening the transaction that uses the id: a refill takes its own pooled
 * connection, and taking it while holding another could exhaust the pool under load.
 */
public final class KeyGenerator {
    /** DayTrader's block size. */
    public static final int DEFAULT_BLOCK_SIZE = 1000;

    private final DataSource dataSource;
    private final int blockSize;
    private final ConcurrentHashMap<String, Block> blocks = new ConcurrentHashMap<>();

    public KeyGenerator(DataSource dataSource, int blockSize) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be >= 1, was " + blockSize);
        }
        this.dataSource = dataSource;
        this.blockSize = blockSize;
    }

    /** The next unused id for {@code keyName} (a row of KEYGEN, created with value 0 when missing). */
    public long next(String keyName) throws SQLException {
        Block block = blocks.computeIfAbsent(keyName, k -> new Block());
        synchronized (block) {
            if (block.next >= block.end) {
                long end = reserve(keyName);
                block.next = end - blockSize;
                block.end = end;
            }
            return block.next++;
        }
    }

    /** Reserves one block and returns its exclusive end; a lost race to create the row is retried once. */
    private long reserve(String keyName) throws SQLException {
        try {
            return reserveOnce(keyName);
        } catch (SQLException e) {
            // Another generator created the missing KEYGEN row first (duplicate key): the UPDATE now finds it.
            return reserveOnce(keyName);
        }
    }

    private long reserveOnce(String keyName) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                int updated;
                try (PreparedStatement ps = c.prepareStatement("UPDATE keygen SET keyval = keyval + ? WHERE keyname = ?")) {
                    ps.setLong(1, blockSize);
                    ps.setString(2, keyName);
                    updated = ps.executeUpdate();
                }
                if (updated == 0) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO keygen (keyname, keyval) VALUES (?, ?)")) {
                        ps.setString(1, keyName);
                        ps.setLong(2, blockSize);
                        ps.executeUpdate();
                    }
                }
                long end;
                try (PreparedStatement ps = c.prepareStatement("SELECT keyval FROM keygen WHERE keyname = ?")) {
                    ps.setString(1, keyName);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        end = rs.getLong(1);
                    }
                }
                c.commit();
                return end;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** The current block of one key: ids {@code next} (inclusive) to {@code end} (exclusive). Guarded by itself. */
    private static final class Block {
        long next;
        long end;
    }
}
