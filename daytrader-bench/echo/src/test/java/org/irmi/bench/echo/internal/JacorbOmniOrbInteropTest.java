package org.irmi.bench.echo.internal;

import org.irmi.bench.echo.OrbVariant;
import org.irmi.bench.echo.OrbVariants;

/** The omniORB C++ client against the echo server on stock JacORB. */
class JacorbOmniOrbInteropTest extends OmniOrbInteropContract {

    @Override
    OrbVariant variant() {
        return OrbVariants.jacorb();
    }
}
