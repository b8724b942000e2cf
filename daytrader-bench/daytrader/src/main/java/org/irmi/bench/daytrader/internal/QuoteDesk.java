package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.irmi.bench.daytrader.HoldingDataBean;
import org.irmi.bench.daytrader.MarketSummaryDataBean;
import org.irmi.bench.daytrader.QuoteDataBean;
import org.irmi.bench.daytrader.TradeException;
import org.irmi.bench.daytrader.TradeServices;

/**
 * DayTrader's market: quotes, holdings, and the market summary (the TSIA over the first
 * {@value #TSIA_QUOTES} quotes, the volume, the top {@value #TOP_MOVERS} gainers and losers),
 * which is computed at most once every 20 seconds and served from a cache in between.
 *
 * <p>THREAD-SAFE: called by the ORB's dispatch threads.
 */
final class QuoteDesk {
    private static final long SUMMARY_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final int TOP_MOVERS = 5;
    private static final int TSIA_QUOTES = 20;

    private final TradeTransactions tx;
    private final LongSupplier nanoClock;
    private final LongSupplier wallMillis;
    private final AtomicReference<CachedSummary> summary = new AtomicReference<>();

    QuoteDesk(TradeTransactions tx, LongSupplier nanoClock, LongSupplier wallMillis) {
        this.tx = tx;
        this.nanoClock = nanoClock;
        this.wallMillis = wallMillis;
    }

    /** @see TradeServices#createQuote */
    QuoteDataBean createQuote(String symbol, String companyName, BigDecimal price) throws SQLException, TradeException {
        return tx.run(c -> {
            if (TradeRows.findQuote(c, symbol, false) != null) {
                throw new TradeException("quote " + symbol + " already exists");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO quote (symbol, companyName, volume, price, openPrice,"
                    + " lowPrice, highPrice, priceChange) VALUES (?, ?, 0, ?, ?, ?, ?, 0)")) {
                ps.setString(1, symbol);
                ps.setString(2, companyName);
                for (int i = 3; i <= 6; i++) {
                    ps.setBigDecimal(i, price.setScale(2, RoundingMode.HALF_EVEN));
                }
                ps.executeUpdate();
            }
            return TradeRows.quote(c, symbol);
        });
    }

    /** @see TradeServices#getQuote */
    QuoteDataBean quoteOf(String symbol) throws SQLException, TradeException {
        return tx.run(c -> TradeRows.quote(c, symbol));
    }

    /** @see TradeServices#getAllQuotes */
    List<QuoteDataBean> allQuotes() throws SQLException, TradeException {
        return tx.run(c -> TradeRows.quotes(c, "SELECT * FROM quote ORDER BY symbol", -1));
    }

    /** @see TradeServices#updateQuotePriceVolume */
    QuoteDataBean updateQuotePriceVolume(String symbol, BigDecimal newPrice, double sharesTraded)
            throws SQLException, TradeException {
        return tx.run(c -> {
            TradeRows.lockQuote(c, symbol);
            TradeRows.updateQuote(c, symbol, newPrice.setScale(2, RoundingMode.HALF_EVEN), sharesTraded);
            return TradeRows.quote(c, symbol);
        });
    }

    /** @see TradeServices#getHoldings */
    List<HoldingDataBean> holdingsOf(String userId) throws SQLException, TradeException {
        return tx.run(c -> {
            long accountId = TradeRows.accountId(c, userId, false);
            List<HoldingDataBean> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM holding WHERE account_accountID = ? ORDER BY holdingID")) {
                ps.setLong(1, accountId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(TradeRows.holding(rs));
                    }
                }
            }
            return out;
        });
    }

    /** @see TradeServices#getHolding */
    HoldingDataBean holdingOf(long holdingId) throws SQLException, TradeException {
        return tx.run(c -> {
            HoldingDataBean h = TradeRows.findHolding(c, holdingId, false);
            if (h == null) {
                throw new TradeException("no holding " + holdingId);
            }
            return h;
        });
    }

    /** @see TradeServices#getMarketSummary */
    MarketSummaryDataBean marketSummary() throws SQLException, TradeException {
        long nowNanos = nanoClock.getAsLong();
        CachedSummary cached = summary.get();
        if (cached != null && nowNanos - cached.computedNanos < SUMMARY_REFRESH_NANOS) {
            return cached.summary;
        }
        MarketSummaryDataBean fresh = tx.run(this::computeSummary);
        summary.set(new CachedSummary(fresh, nowNanos));
        return fresh;
    }

    private MarketSummaryDataBean computeSummary(Connection c) throws SQLException {
        BigDecimal tsia = BigDecimal.ZERO;
        BigDecimal openTsia = BigDecimal.ZERO;
        int n = 0;
        try (PreparedStatement ps = c.prepareStatement("SELECT price, openPrice FROM quote WHERE symbol = ?")) {
            for (int i = 0; i < TSIA_QUOTES; i++) {
                ps.setString(1, "s:" + i);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        tsia = tsia.add(rs.getBigDecimal(1));
                        openTsia = openTsia.add(rs.getBigDecimal(2));
                        n++;
                    }
                }
            }
        }
        if (n > 0) {
            tsia = tsia.divide(BigDecimal.valueOf(n), 2, RoundingMode.HALF_EVEN);
            openTsia = openTsia.divide(BigDecimal.valueOf(n), 2, RoundingMode.HALF_EVEN);
        }
        double volume;
        try (PreparedStatement ps = c.prepareStatement("SELECT SUM(volume) FROM quote"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            volume = rs.getDouble(1);
        }
        List<QuoteDataBean> gainers = TradeRows.quotes(c, "SELECT * FROM quote ORDER BY priceChange DESC, symbol", TOP_MOVERS);
        List<QuoteDataBean> losers = TradeRows.quotes(c, "SELECT * FROM quote ORDER BY priceChange ASC, symbol", TOP_MOVERS);
        return new MarketSummaryDataBean(tsia, openTsia, volume, gainers, losers, wallMillis.getAsLong());
    }

    /** The market summary and when it was computed. */
    private record CachedSummary(MarketSummaryDataBean summary, long computedNanos) {
    }
}
