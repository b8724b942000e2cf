package org.irmi.bench.daytrader.internal;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.irmi.bench.daytrader.LatencySummary;
import org.irmi.bench.daytrader.OperationSecond;
import org.irmi.bench.daytrader.SecondSample;

/**
 * Per-second throughput and execution time per operation, with HdrHistogram, plus garbage
 * collections per second: the data behind the paper's figures.
 *
 * <p>Callers {@link #record} each finished call with its duration (time arrives as data; this
 * class reads no clock). Once a second a sampler calls {@link #roll} with the epoch second that just
 * ended and the JVM's cumulative GC figures; the interval histograms taken then become one
 * {@link SecondSample}, kept in a ring of the last {@code capacitySeconds}. A second accumulation
 * since the last {@link #summary(boolean) reset} gives run-wide percentiles.
 *
 * <p>THREADING: {@link #record} is wait-free for any number of threads (HdrHistogram
 * {@link Recorder}s). {@link #roll}, {@link #since} and {@link #summary} serialize on this object;
 * they are called once a second and by readers, never on the request path.
 */
public final class TimeSeriesRecorder {
    /** Recorded range: 1 us to 1 hour, 2 significant digits. */
    private static final long MAX_MICROS = 3_600_000_000L;

    private final int capacitySeconds;
    private final ConcurrentHashMap<String, Stream> streams = new ConcurrentHashMap<>();
    private final ArrayDeque<SecondSample> ring = new ArrayDeque<>();
    private long lastGcCount = -1;
    private long lastGcMillis;
    private long summaryStartEpochSecond = -1;

    public TimeSeriesRecorder(int capacitySeconds) {
        if (capacitySeconds < 1) {
            throw new IllegalArgumentException("capacitySeconds must be >= 1, was " + capacitySeconds);
        }
        this.capacitySeconds = capacitySeconds;
    }

    /** Records one finished call of {@code operation} that took {@code durationNanos}. */
    public void record(String operation, long durationNanos, boolean failed) {
        Stream s = streams.computeIfAbsent(operation, Stream::new);
        long micros = Math.max(1, Math.min(MAX_MICROS, durationNanos / 1000));
        s.perSecond.recordValue(micros);
        s.perRun.recordValue(micros);
        if (failed) {
            s.errorsThisSecond.increment();
            s.errorsThisRun.increment();
        }
    }

    /**
     * Closes the interval that ended with {@code epochSecond}. {@code gcCount} and {@code gcMillis}
     * are cumulative JVM totals (the first call only sets the baseline); {@code heapUsedBytes} is a reading.
     */
    public synchronized SecondSample roll(long epochSecond, long gcCount, long gcMillis, long heapUsedBytes) {
        List<OperationSecond> ops = new ArrayList<>();
        Map<String, Stream> sorted = new TreeMap<>(streams);
        for (Stream s : sorted.values()) {
            s.interval = s.perSecond.getIntervalHistogram(s.interval);
            long errors = s.errorsThisSecond.sumThenReset();
            long n = s.interval.getTotalCount();
            if (n > 0) {
                ops.add(new OperationSecond(s.operation, n, errors, s.interval.getMean(),
                        s.interval.getValueAtPercentile(50), s.interval.getValueAtPercentile(99), s.interval.getMaxValue()));
            }
        }
        long gcDelta = lastGcCount < 0 ? 0 : gcCount - lastGcCount;
        long gcMillisDelta = lastGcCount < 0 ? 0 : gcMillis - lastGcMillis;
        lastGcCount = gcCount;
        lastGcMillis = gcMillis;
        if (summaryStartEpochSecond < 0) {
            summaryStartEpochSecond = epochSecond;
        }
        SecondSample sample = new SecondSample(epochSecond, gcDelta, gcMillisDelta, heapUsedBytes, ops);
        ring.addLast(sample);
        while (ring.size() > capacitySeconds) {
            ring.removeFirst();
        }
        return sample;
    }

    /** Rolls with this JVM's own GC and heap readings. */
    public SecondSample rollWithJvmReadings(long epochSecond) {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return roll(epochSecond, count, millis, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }

    /** The kept samples with {@code epochSecond >= sinceEpochSecond}, oldest first. */
    public synchronized List<SecondSample> since(long sinceEpochSecond) {
        List<SecondSample> out = new ArrayList<>();
        for (SecondSample s : ring) {
            if (s.getEpochSecond() >= sinceEpochSecond) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * Latency of every call since the last reset, per operation and {@code *} for all; the span is
     * counted in rolled seconds. With {@code reset} the accumulation restarts.
     */
    public synchronized List<LatencySummary> summary(boolean reset, long nowEpochSecond) {
        List<LatencySummary> out = new ArrayList<>();
        Histogram all = new Histogram(MAX_MICROS, 2);
        long allErrors = 0;
        double span = summaryStartEpochSecond < 0 ? 0 : Math.max(1, nowEpochSecond - summaryStartEpochSecond);
        for (Stream s : new TreeMap<>(streams).values()) {
            Histogram h = s.perRun.getIntervalHistogram();
            s.runTotal.add(h);
            long errors = reset ? s.errorsThisRun.sumThenReset() : s.errorsThisRun.sum();
            out.add(summaryOf(s.operation, s.runTotal, errors, span));
            all.add(s.runTotal);
            allErrors += errors;
            if (reset) {
                s.runTotal.reset();
            }
        }
        out.add(summaryOf("*", all, allErrors, span));
        if (reset) {
            summaryStartEpochSecond = nowEpochSecond;
        }
        return out;
    }

    private static LatencySummary summaryOf(String operation, Histogram h, long errors, double span) {
        long n = h.getTotalCount();
        return new LatencySummary(operation, n, errors, span, n == 0 ? 0 : h.getMean(),
                h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99), h.getMaxValue());
    }

    /** One operation's recorders. */
    private static final class Stream {
        final String operation;
        final Recorder perSecond = new Recorder(MAX_MICROS, 2);
        final Recorder perRun = new Recorder(MAX_MICROS, 2);
        final LongAdder errorsThisSecond = new LongAdder();
        final LongAdder errorsThisRun = new LongAdder();
        final Histogram runTotal = new Histogram(MAX_MICROS, 2);
        Histogram interval;

        Stream(String operation) {
            this.operation = operation;
        }
    }
}
