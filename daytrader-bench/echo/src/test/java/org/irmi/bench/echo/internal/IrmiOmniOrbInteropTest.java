package org.irmi.bench.echo.internal;

import org.irmi.bench.echo.OrbVariant;
import org.irmi.bench.echo.OrbVariants;

/**
 * The omniORB C++ client against the echo server on the I-RMI ORB (issue 2: "a C++ client built
 * with omniORB calls the I-RMI server, including 1 MB requests, which omniORB fragments").
 */
class IrmiOmniOrbInteropTest extends OmniOrbInteropContract {

    @Override
    OrbVariant variant() {
        return OrbVariants.irmi();
    }
}
