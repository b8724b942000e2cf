package org.irmi.orb.internal.rmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import org.irmi.isolation.MinorCodes;
import org.junit.jupiter.api.Test;

/** The CPU a value read is charged: the reading thread's CPU, not the time it was stopped. */
class ValueReadScopeTest {

    private final ValueFilter filter = new ValueFilter(null, null, Set.of(), () -> Long.MAX_VALUE);
    private final long budget = filter.cpuBudgetNanos(300);

    private ValueReadScope open() {
        return ValueReadScope.open(filter, new org.jacorb.orb.CDRInputStream(new byte[300]));
    }

    /** Parks (no CPU) until {@code nanos} of wall time have passed: what a collection's pause looks like to the reader. */
    private static void stoppedFor(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    @Test
    void shouldNotChargeTheTimeTheReaderWasStoppedWhenAValueIsEntered() {
        ValueReadScope scope = open();
        try {
            assertThat(scope.enter(java.util.ArrayList.class)).isNull();
            stoppedFor(2 * budget); // a pause of twice the budget, with no CPU used
            assertThat(scope.enter(String.class)).as("stopped, not reading").isNull();
            scope.exit();
            stoppedFor(2 * budget);
            assertThat(scope.enter(String.class)).as("stopped again after the CPU clock was read").isNull();
        } finally {
            scope.close();
        }
    }

    @Test
    void shouldRefuseWhenTheReaderUsedMoreCpuThanTheBudget() {
        ValueReadScope scope = open();
        try {
            assertThat(scope.enter(java.util.ArrayList.class)).isNull();
            long spin = System.nanoTime() + budget / 5;
            while (System.nanoTime() < spin) {
                Thread.onSpinWait(); // past a tenth of the budget: the CPU clock is read from here
            }
            assertThat(scope.enter(String.class)).isNull();
            scope.exit();
            long cpuEnd = cpuNanos() + 2 * budget;
            while (cpuNanos() < cpuEnd) {
                Thread.onSpinWait();
            }
            org.omg.CORBA.MARSHAL refusal = scope.enter(String.class);
            assertThat(refusal).isNotNull();
            assertThat(refusal.minor).isEqualTo(MinorCodes.VALUE_REFUSED);
            assertThat(refusal.getMessage()).contains("of CPU");
        } finally {
            scope.close();
        }
    }

    private static long cpuNanos() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }
}
