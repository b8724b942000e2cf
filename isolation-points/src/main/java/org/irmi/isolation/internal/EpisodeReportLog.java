package org.irmi.isolation.internal;

import java.util.ArrayDeque;
import java.util.List;
import org.irmi.isolation.EpisodeReport;

/**
 * The poison point's last {@value #MAX_REPORTS} episode reports, oldest first; an older report
 * makes room for a new one.
 *
 * <p>THREADING: any thread (a lock held only to add or copy).
 */
final class EpisodeReportLog {

    /** Reports kept. */
    static final int MAX_REPORTS = 100;

    private final ArrayDeque<EpisodeReport> reports = new ArrayDeque<>();

    /** Keeps {@code report}, dropping the oldest when {@value #MAX_REPORTS} are kept already. */
    void add(EpisodeReport report) {
        synchronized (reports) {
            reports.addLast(report);
            if (reports.size() > MAX_REPORTS) {
                reports.removeFirst();
            }
        }
    }

    /** @return a copy of the kept reports, oldest first */
    List<EpisodeReport> list() {
        synchronized (reports) {
            return List.copyOf(reports);
        }
    }
}
