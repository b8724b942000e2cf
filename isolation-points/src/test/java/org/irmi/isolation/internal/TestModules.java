package org.irmi.isolation.internal;

import java.util.ArrayList;
import java.util.List;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.isolation.Trigger;

/** A module that rejects and remembers what it was asked; isolation-points cannot see the built-ins. */
final class TestModules {
    private TestModules() {
    }

    static final class Recording implements AdaptationModule {
        final List<Trigger> triggers = new ArrayList<>();
        private final Decision answer;

        Recording(Decision answer) {
            this.answer = answer;
        }

        static Recording rejecting(int minor) {
            return new Recording(Decision.reject(SystemExceptionKind.TRANSIENT, minor, "test"));
        }

        static Recording shortCircuiting() {
            return new Recording(new Decision.ShortCircuit(null));
        }

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public synchronized Decision decide(Trigger trigger) {
            triggers.add(trigger);
            return answer;
        }
    }

    static Recording poisonRejecting() {
        return Recording.rejecting(MinorCodes.POISON_FILTERED);
    }
}
