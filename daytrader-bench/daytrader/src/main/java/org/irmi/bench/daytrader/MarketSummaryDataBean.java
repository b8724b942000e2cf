package org.irmi.bench.daytrader;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;

/**
 * The market summary: the TSIA index (mean price of the top quotes), its opening value, the total
 * volume, and the top gainers and losers. Recomputed at most every 20 s by the backend.
 */
public final class MarketSummaryDataBean implements Serializable {
    private static final long serialVersionUID = 1L;

    private final BigDecimal tsia;
    private final BigDecimal openTsia;
    private final double volume;
    // ArrayList, not List.copyOf: the immutable lists serialize through a proxy RMI-IIOP handles poorly.
    private final List<QuoteDataBean> topGainers;
    private final List<QuoteDataBean> topLosers;
    private final long summaryDateMillis;

    public MarketSummaryDataBean(BigDecimal tsia, BigDecimal openTsia, double volume, List<QuoteDataBean> topGainers,
                                 List<QuoteDataBean> topLosers, long summaryDateMillis) {
        this.tsia = tsia;
        this.openTsia = openTsia;
        this.volume = volume;
        this.topGainers = new java.util.ArrayList<>(topGainers);
        this.topLosers = new java.util.ArrayList<>(topLosers);
        this.summaryDateMillis = summaryDateMillis;
    }

    public BigDecimal getTsia() { return tsia; }
    public BigDecimal getOpenTsia() { return openTsia; }
    public double getVolume() { return volume; }
    public List<QuoteDataBean> getTopGainers() { return topGainers; }
    public List<QuoteDataBean> getTopLosers() { return topLosers; }
    public long getSummaryDateMillis() { return summaryDateMillis; }

    /** Percentage gain of the index since the open. */
    public double getGainPercent() {
        return openTsia.signum() == 0 ? 0 : tsia.subtract(openTsia).doubleValue() * 100 / openTsia.doubleValue();
    }
}
