package org.irmi.orb;

/** Counts live threads by name, as the tests about thread use need. */
final class Threads {

    private Threads() {
    }

    static long named(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals(name)).count();
    }

    static long namedStartingWith(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix)).count();
    }
}
