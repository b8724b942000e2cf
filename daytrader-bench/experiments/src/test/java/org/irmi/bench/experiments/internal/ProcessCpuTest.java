package org.irmi.bench.experiments.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
class ProcessCpuTest {

    @Test
    void shouldCountTheJitCompilerThreadsOfThisJvmAsPartOfItsCpu() {
        long pid = ProcessHandle.current().pid();
        long jit = ProcessCpu.compilerNanos(pid);
        long all = ProcessCpu.nanos(pid);
        // this JVM compiled JUnit's and its own classes' hot methods before the test ran
        assertTrue(jit > 0, "compiler threads' CPU " + jit);
        assertTrue(jit <= all, "compiler threads' CPU " + jit + " within the process's " + all);
    }

    @Test
    void shouldSayMinusOneForAProcessThatIsGone() {
        assertEquals(-1, ProcessCpu.compilerNanos(Integer.MAX_VALUE));
        assertEquals(-1, ProcessCpu.nanos(Integer.MAX_VALUE));
    }
}
