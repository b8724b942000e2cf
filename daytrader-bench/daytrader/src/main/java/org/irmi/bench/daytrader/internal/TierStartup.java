package org.irmi.bench.daytrader.internal;

import java.util.Set;
import org.irmi.bench.daytrader.OrbChoice;
import org.irmi.bench.daytrader.RmiIiop;

/**
 * The first steps every DayTrader tier JVM ({@link BackendMain}, {@link WebTierMain}) takes in
 * {@code main}, in this order: parse its options and {@code --orb}, exiting with status 2 and a
 * message prefixed by the tier's name when they are wrong; watch the parent ({@code --watch-stdin});
 * set RMI-IIOP's system properties for the chosen ORB, before any CORBA class is touched.
 *
 * <p>Also the options both tiers read with the same default: {@code --users} and {@code --quotes}.
 *
 * @param args the tier's options
 * @param orb  the ORB chosen with {@code --orb} (default {@code irmi})
 */
record TierStartup(Args args, OrbChoice orb) {
    /** The flag (no value) that makes a tier exit when its parent goes: {@link ChildProcessSupport#exitWhenParentGoes}. */
    static final String WATCH_STDIN = "watch-stdin";
    static final int DEFAULT_USERS = 15_000;
    static final int DEFAULT_QUOTES = 10_000;

    /**
     * Starts a tier: the steps in the class Javadoc.
     *
     * @param tier    the tier's name, which prefixes an option error ({@code backend}, {@code web})
     * @param argv    {@code main}'s arguments
     * @param options the options that take a value; {@code --watch-stdin} is the one flag
     * @throws IllegalStateException when the chosen ORB is not on the class path
     */
    static TierStartup begin(String tier, String[] argv, Set<String> options) {
        Args args;
        OrbChoice orb;
        try {
            args = Args.parse(argv, options, Set.of(WATCH_STDIN));
            orb = OrbChoice.parse(args.get("orb", "irmi"));
        } catch (IllegalArgumentException e) {
            System.err.println(tier + ": " + e.getMessage());
            System.exit(2);
            throw new AssertionError("not reached: System.exit returned", e);
        }
        ChildProcessSupport.exitWhenParentGoes(args.has(WATCH_STDIN));
        RmiIiop.installSystemProperties(orb);
        return new TierStartup(args, orb);
    }

    /**
     * @return {@code --users}, the number of user accounts (default {@value #DEFAULT_USERS})
     * @throws IllegalArgumentException when it is not a whole number of at least 1
     */
    int users() {
        return args.getInt("users", DEFAULT_USERS, 1);
    }

    /**
     * @return {@code --quotes}, the number of quote symbols (default {@value #DEFAULT_QUOTES})
     * @throws IllegalArgumentException when it is not a whole number of at least 1
     */
    int quotes() {
        return args.getInt("quotes", DEFAULT_QUOTES, 1);
    }
}
