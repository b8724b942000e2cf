package org.irmi.bench.daytrader;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.irmi.bench.daytrader.internal.ScenarioMix;

/**
 * An httperf {@code --wsesslog} script drawn from DayTrader's scenario mix: every line is one real
 * page of the web tier (login, home, quote, buy, sell, portfolio, account, update, register,
 * logout), so httperf replays what browsers would send instead of asking the server to pick an
 * action. Each session signs in as its own user (from the populated {@code uid:N} accounts, no two
 * sessions alike), so every request is valid for the user it runs as.
 *
 * <p>The mix's rules, applied when the script is written: a session with no user signed in logs in
 * first (so a logout is followed by a login), a quote asks for 1 to 10 random symbols, a sell sells a
 * holding the session bought earlier ({@code sell?symbol=}, the portfolio's sell link for that
 * symbol) and becomes a buy when it has bought nothing yet, a register signs the session in as the
 * new user. Every change of state (login, register, update, buy, sell, logout) is a POST with the
 * form's fields, as the web tier requires; reads (home, quote, portfolio, account) are GETs.
 *
 * <p>CSRF: httperf cannot read a token from a page, so each session brings its own: a 128-bit token
 * drawn from {@link SecureRandom} when the script is written, sent with the session's first login
 * (which has no session yet, so the web tier adopts it as the session's CSRF token) and with every
 * later POST. The web tier holds such a login to its own {@code Origin}
 * ({@link Httperf#sessionLog} sends it). The script therefore holds live credentials for the run:
 * it is written with mode 0600 by {@link #write}.
 *
 * <p>The pages are deterministic for a seed (the tokens are not): tests check the lines, the
 * experiments write the file.
 */
public final class SessionLog {
    private static final String BASE = "/daytrader/";

    private SessionLog() {
    }

    /**
     * @param mix the action weights
     * @param sessions how many sessions (httperf runs each once)
     * @param requestsPerSession pages per session
     * @param users populated users {@code uid:0 .. uid:(users-1)}; must be at least {@code sessions}
     * @param quotes populated quotes {@code s:0 .. s:(quotes-1)}
     * @param seed the random seed (the same seed gives the same script)
     * @return the script, sessions separated by a blank line
     */
    public static String generate(ScenarioMix mix, int sessions, int requestsPerSession, int users, int quotes, long seed) {
        if (sessions < 1 || requestsPerSession < 1 || quotes < 1) {
            throw new IllegalArgumentException("sessions, requestsPerSession and quotes must be >= 1; were " + sessions + ", "
                    + requestsPerSession + ", " + quotes);
        }
        if (users < sessions) {
            throw new IllegalArgumentException("need a user per session: users (" + users + ") < sessions (" + sessions + ")");
        }
        Random random = new Random(seed);
        SecureRandom tokens = new SecureRandom();
        List<Integer> deck = new ArrayList<>(users);
        for (int i = 0; i < users; i++) {
            deck.add(i);
        }
        Collections.shuffle(deck, random);
        StringBuilder sb = new StringBuilder("# DayTrader sessions for httperf --wsesslog, from the standard mix (seed ")
                .append(seed).append(")\n");
        for (int s = 0; s < sessions; s++) {
            byte[] token = new byte[16];
            tokens.nextBytes(token);
            session(sb, mix, random, "uid:" + deck.get(s), s, requestsPerSession, quotes, HexFormat.of().formatHex(token));
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Writes {@link #generate} to {@code file}, readable by its owner only (it holds the sessions' CSRF tokens). */
    public static Path write(Path file, ScenarioMix mix, int sessions, int requestsPerSession, int users, int quotes, long seed)
            throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        return Files.writeString(file, generate(mix, sessions, requestsPerSession, users, quotes, seed));
    }

    private static void session(StringBuilder sb, ScenarioMix mix, Random r, String firstUser, int index, int requests,
                                int quotes, String csrf) {
        String token = "&csrf=" + csrf;
        String user = firstUser;
        boolean signedIn = false;
        int registered = 0;
        List<String> bought = new ArrayList<>();
        for (int n = 0; n < requests; n++) {
            if (!signedIn) {
                post(sb, "login", "uid=" + enc(user) + "&passwd=xxx" + token);
                signedIn = true;
                continue;
            }
            switch (mix.pick(r.nextInt(mix.total()))) {
                case HOME -> get(sb, "home");
                case QUOTE -> {
                    StringBuilder symbols = new StringBuilder();
                    int k = 1 + r.nextInt(10);
                    for (int i = 0; i < k; i++) {
                        symbols.append(i == 0 ? "" : ",").append("s:").append(r.nextInt(quotes));
                    }
                    get(sb, "quote?symbols=" + enc(symbols.toString()));
                }
                case LOGIN -> post(sb, "login", "uid=" + enc(user) + "&passwd=xxx" + token);
                case LOGOUT -> {
                    post(sb, "logout", token.substring(1));
                    signedIn = false;
                }
                case REGISTER -> {
                    user = "ru:" + index + ":" + (++registered);
                    post(sb, "register", "uid=" + enc(user) + "&passwd=xxx&fullname=" + enc("Rnd " + user) + "&address="
                            + enc(r.nextInt(1000) + " Oak St.") + "&email=" + enc(user.replace(':', '.') + "@daytrader.example")
                            + "&creditcard=" + enc("1234-5678-" + (1000 + r.nextInt(9000))) + "&money=1000000" + token);
                    bought.clear(); // signed in as the new user, who holds nothing
                }
                case ACCOUNT -> get(sb, "account");
                case PORTFOLIO -> get(sb, "portfolio");
                case BUY -> buy(sb, r, quotes, bought, token);
                case SELL -> {
                    if (bought.isEmpty()) {
                        buy(sb, r, quotes, bought, token); // a sell with an empty portfolio becomes a buy
                    } else {
                        post(sb, "sell", "symbol=" + enc(bought.remove(r.nextInt(bought.size()))) + token);
                    }
                }
                case UPDATE -> post(sb, "update", "fullname=" + enc("User " + r.nextInt(1_000_000)) + "&address="
                        + enc(r.nextInt(1000) + " Market St.") + token);
            }
        }
    }

    private static void buy(StringBuilder sb, Random r, int quotes, List<String> bought, String token) {
        String symbol = "s:" + r.nextInt(quotes);
        bought.add(symbol);
        post(sb, "buy", "symbol=" + enc(symbol) + "&quantity=" + (1 + r.nextInt(100)) + token);
    }

    private static void get(StringBuilder sb, String page) {
        sb.append(BASE).append(page).append('\n');
    }

    private static void post(StringBuilder sb, String page, String form) {
        sb.append(BASE).append(page).append(" method=POST contents='").append(form).append("'\n");
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
