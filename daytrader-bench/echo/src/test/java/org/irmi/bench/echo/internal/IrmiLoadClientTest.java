package org.irmi.bench.echo.internal;

import org.irmi.bench.echo.OrbVariant;
import org.irmi.bench.echo.OrbVariants;

/** The omniORB load client against the echo server on the I-RMI ORB. */
class IrmiLoadClientTest extends LoadClientContract {

    @Override
    OrbVariant variant() {
        return OrbVariants.irmi();
    }
}
