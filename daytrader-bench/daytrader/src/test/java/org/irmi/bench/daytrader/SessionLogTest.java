package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.irmi.bench.daytrader.internal.ScenarioMix;
import org.junit.jupiter.api.Test;

class SessionLogTest {

    private static List<String> sessions(String log) {
        String withoutComments = log.lines().filter(l -> !l.startsWith("#")).reduce("", (a, b) -> a + b + "\n");
        return Arrays.stream(withoutComments.split("\n\n")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    @Test
    void shouldStartEverySessionWithAPostedLoginOfItsOwnUserWhenGenerated() {
        List<String> sessions = sessions(SessionLog.generate(ScenarioMix.STANDARD, 4, 50, 100, 1000, 7));

        assertThat(sessions).hasSize(4);
        Set<String> firstLines = new HashSet<>();
        for (String s : sessions) {
            String first = s.lines().findFirst().orElseThrow();
            assertThat(first).startsWith("/daytrader/login method=POST contents='uid=uid%3A").matches(".*&passwd=xxx&csrf=[0-9a-f]{32}'");
            firstLines.add(first);
        }
        assertThat(firstLines).as("one user per session").hasSize(4);
    }

    @Test
    void shouldFollowEveryLogoutWithALoginWhenGenerated() {
        String log = SessionLog.generate(ScenarioMix.STANDARD, 2, 2000, 100, 1000, 3);
        List<String> lines = log.lines().toList();

        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).startsWith("/daytrader/logout ") && !lines.get(i + 1).isEmpty()) {
                assertThat(lines.get(i + 1)).startsWith("/daytrader/login method=POST");
            }
        }
        assertThat(log).contains("/daytrader/logout");
    }

    @Test
    void shouldSellOnlySymbolsTheSessionBoughtWhenGenerated() {
        for (String session : sessions(SessionLog.generate(ScenarioMix.STANDARD, 3, 3000, 100, 50, 11))) {
            java.util.Map<String, Integer> held = new java.util.HashMap<>();
            for (String line : session.lines().toList()) {
                if (line.startsWith("/daytrader/register")) {
                    held.clear();
                } else if (line.startsWith("/daytrader/buy method=POST contents='symbol=")) {
                    held.merge(line.substring("/daytrader/buy method=POST contents='symbol=".length(), line.indexOf('&')), 1,
                            Integer::sum);
                } else if (line.startsWith("/daytrader/sell method=POST contents='symbol=")) {
                    String symbol = line.substring("/daytrader/sell method=POST contents='symbol=".length(), line.indexOf('&'));
                    assertThat(held.getOrDefault(symbol, 0)).as(line).isPositive();
                    held.merge(symbol, -1, Integer::sum);
                }
            }
        }
    }

    @Test
    void shouldDrawPagesInTheMixProportionsWhenGenerated() {
        List<String> lines = SessionLog.generate(ScenarioMix.STANDARD, 1, 20_000, 10, 1000, 5).lines().toList();
        long quotes = lines.stream().filter(l -> l.startsWith("/daytrader/quote?")).count();
        long homes = lines.stream().filter(l -> l.equals("/daytrader/home")).count();

        // quote 40 and home 20 of 100, less the logins that follow logouts (4 of 100)
        assertThat(quotes / 20_000.0).isBetween(0.36, 0.40);
        assertThat(homes / 20_000.0).isBetween(0.17, 0.21);
    }

    private static String withoutTokens(String log) {
        return log.replaceAll("csrf=[0-9a-f]{32}", "csrf=T");
    }

    @Test
    void shouldProduceTheSamePagesWhenTheSeedIsTheSame() {
        assertThat(withoutTokens(SessionLog.generate(ScenarioMix.STANDARD, 2, 100, 10, 100, 9)))
                .isEqualTo(withoutTokens(SessionLog.generate(ScenarioMix.STANDARD, 2, 100, 10, 100, 9)));
    }

    @Test
    void shouldPostEveryChangeOfStateWithTheSessionsOwnTokenWhenGenerated() {
        Set<String> tokens = new HashSet<>();
        for (String session : sessions(SessionLog.generate(ScenarioMix.STANDARD, 3, 500, 100, 50, 13))) {
            Set<String> inSession = new HashSet<>();
            for (String line : session.lines().toList()) {
                String page = line.substring("/daytrader/".length()).split("[ ?]")[0];
                if (Set.of("login", "logout", "register", "update", "buy", "sell").contains(page)) {
                    assertThat(line).as(line).contains(" method=POST contents='").matches(".*csrf=[0-9a-f]{32}'");
                    inSession.add(line.replaceAll(".*csrf=([0-9a-f]{32})'", "$1"));
                } else {
                    assertThat(line).as(line).doesNotContain("method=", "csrf");
                }
            }
            assertThat(inSession).as("one token per session").hasSize(1);
            tokens.addAll(inSession);
        }
        assertThat(tokens).as("no two sessions share a token").hasSize(3);
    }

    @Test
    void shouldWriteTheScriptReadableOnlyByItsOwner(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = SessionLog.write(dir.resolve("s.txt"), ScenarioMix.STANDARD, 1, 5, 10, 10, 1);

        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
    }

    @Test
    void shouldRefuseMoreSessionsThanUsersWhenAsked() {
        assertThatThrownBy(() -> SessionLog.generate(ScenarioMix.STANDARD, 5, 10, 4, 100, 1))
                .hasMessageContaining("users (4) < sessions (5)");
    }
}
