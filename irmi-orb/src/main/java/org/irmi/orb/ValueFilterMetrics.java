package org.irmi.orb;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.irmi.orb.internal.rmi.ValueFilters;
import org.irmi.orb.internal.rmi.ValueRefusal;

/**
 * Micrometer meters of the RMI-IIOP value filter: {@code irmi.rmi.values.refused}, one function
 * counter per refusal kind (tag {@code kind}: {@code class}, {@code limit}, {@code array},
 * {@code collection}, {@code hash_nesting}, {@code cpu}, {@code header}, {@code serial_filter},
 * {@code malformed}; a fixed set). They read the filter's counters when scraped; nothing is done per
 * request. The counters are JVM-wide, as the filter's RMI-IIOP delegates are.
 */
public final class ValueFilterMetrics implements MeterBinder {

    @Override
    public void bindTo(MeterRegistry registry) {
        // no base unit: the name says what is counted ("values"), and Prometheus would repeat it
        for (ValueRefusal kind : ValueRefusal.values()) {
            FunctionCounter.builder("irmi.rmi.values.refused", kind, ValueFilters::refusedCount)
                    .description("RMI-IIOP values refused by the value filter, by why (answered MARSHAL VALUE_REFUSED)")
                    .tag("kind", kind.tag()).register(registry);
        }
    }
}
