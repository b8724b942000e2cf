package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.irmi.orb.OrbExtension;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.INITIALIZE;

/** The extensions of one ORB: started together, found by type, each closed exactly once. */
class RunningExtensionsTest {

    private static final UnaryOperator<String> NO_SETTINGS = key -> null;

    /** What a test extension runs: counts its closes. */
    static final class Counted implements OrbExtension.Running {
        int closes;

        @Override
        public void close() {
            closes++;
        }
    }

    /** Runs {@code r} when started. */
    private static OrbExtension starting(OrbExtension.Running r) {
        return (orb, settings) -> Optional.of(r);
    }

    private static OrbExtension failing(RuntimeException e) {
        return (orb, settings) -> {
            throw e;
        };
    }

    @Test
    void shouldCloseEachExtensionOnceWhenClosedTwice() {
        Counted a = new Counted();
        Counted b = new Counted();
        RunningExtensions running = new RunningExtensions();
        running.start(null, NO_SETTINGS, List.of(starting(a), starting(b)));

        running.close();
        running.close(); // shutdown, then destroy

        assertThat(a.closes).isEqualTo(1);
        assertThat(b.closes).isEqualTo(1);
    }

    @Test
    void shouldFindTheRunningExtensionByTypeUntilClosed() {
        Counted a = new Counted();
        RunningExtensions running = new RunningExtensions();
        running.start(null, NO_SETTINGS, List.of((orb, settings) -> Optional.empty(), starting(a)));

        assertThat(running.find(Counted.class)).containsSame(a);
        running.close();
        assertThat(running.find(Counted.class)).isEmpty();
    }

    @Test
    void shouldCloseTheStartedOnesAndRethrowWhenAnExtensionRefusesItsSettings() {
        Counted a = new Counted();
        INITIALIZE refusal = new INITIALIZE("I-RMI cannot use the SLA x.yaml: x.yaml:4:5: unknown key");
        RunningExtensions running = new RunningExtensions();

        assertThatThrownBy(() -> running.start(null, NO_SETTINGS, List.of(starting(a), failing(refusal))))
                .isSameAs(refusal);
        assertThat(a.closes).isEqualTo(1);
        assertThat(running.find(Counted.class)).isEmpty();
    }

    @Test
    void shouldFailWithInitializeNamingTheExtensionWhenItFailsOtherwise() {
        RunningExtensions running = new RunningExtensions();
        OrbExtension broken = failing(new IllegalStateException("port in use"));

        assertThatThrownBy(() -> running.start(null, NO_SETTINGS, List.of(broken)))
                .isInstanceOf(INITIALIZE.class)
                .hasMessageContaining(broken.getClass().getName())
                .hasMessageContaining("port in use");
    }
}
