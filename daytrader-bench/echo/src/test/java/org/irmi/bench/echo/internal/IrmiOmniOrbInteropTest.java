package org.irmi.bench.echo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.irmi.bench.echo.OrbVariant;
import org.irmi.bench.echo.OrbVariants;
import org.junit.jupiter.api.Test;

/**
 * The omniORB C++ client against the echo server on the I-RMI ORB (issue 2: "a C++ client built
 * with omniORB calls the I-RMI server, including 1 MB requests, which omniORB fragments").
 */
class IrmiOmniOrbInteropTest extends OmniOrbInteropContract {

    @Override
    OrbVariant variant() {
        return OrbVariants.irmi();
    }

    @Test
    void shouldStartOneIrmiSelectorThreadWhenServerRunsOnIrmi() {
        // The I-RMI transport names its one reader thread "irmi-selector"; stock JacORB has none.
        assertThat(selectorThreadsStarted).isEqualTo(1);
    }
}
