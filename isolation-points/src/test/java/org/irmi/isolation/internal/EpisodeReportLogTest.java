package org.irmi.isolation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.irmi.isolation.EpisodeReport;
import org.irmi.isolation.Evidence;
import org.junit.jupiter.api.Test;

class EpisodeReportLogTest {

    private static EpisodeReport report(int episode) {
        return new EpisodeReport(episode, 0, 1, Set.of(), Set.of(), Set.of(), null, Set.of(), Evidence.builder().build());
    }

    @Test
    void shouldKeepTheNewestReportsOldestFirstWhenMoreThanTheMostArrive() {
        EpisodeReportLog log = new EpisodeReportLog();
        for (int i = 1; i <= EpisodeReportLog.MAX_REPORTS + 2; i++) {
            log.add(report(i));
        }

        assertThat(log.list()).hasSize(EpisodeReportLog.MAX_REPORTS);
        assertThat(log.list().get(0).episode()).isEqualTo(3);
        assertThat(log.list().get(EpisodeReportLog.MAX_REPORTS - 1).episode()).isEqualTo(EpisodeReportLog.MAX_REPORTS + 2);
    }
}
