package org.irmi.adaptation.internal;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import org.irmi.adaptation.ModuleServices;
import org.irmi.adaptation.ReplicaResolver;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.AdaptationModuleProvider;
import org.irmi.isolation.ModuleSettings;
import org.irmi.isolation.ParameterReducer;
import org.irmi.isolation.SystemExceptionKind;

/**
 * The {@link AdaptationModuleProvider}s of the built-in modules, listed in {@code
 * META-INF/services/org.irmi.isolation.AdaptationModuleProvider}. Each checks that it knows every
 * parameter it is given (an unknown key is an error naming the closest known one) and reads its
 * services ({@link ModuleServices}) from the settings.
 */
public final class BuiltInProviders {
    private BuiltInProviders() {
    }

    static ModuleServices services(ModuleSettings s) {
        return s.service(ModuleServices.class)
                .orElseGet(() -> ModuleServices.builder().nanoClock(s.nanoClock()).build());
    }

    static void allowOnly(ModuleSettings s, String... keys) {
        List<String> allowed = Arrays.asList(keys);
        for (String k : s.params().keySet()) {
            if (!allowed.contains(k)) {
                String hint = closest(k, allowed);
                throw new IllegalArgumentException("adaptation module `" + s.module()
                        + "`: unknown parameter `" + k + "`"
                        + (hint == null ? "" : " (did you mean `" + hint + "`?)")
                        + "; known: " + allowed);
            }
        }
    }

    private static String closest(String key, List<String> allowed) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String a : allowed) {
            int d = distance(key.toLowerCase(Locale.ROOT), a.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = a;
            }
        }
        return bestDistance <= Math.max(2, key.length() / 3) ? best : null;
    }

    /** @return the Levenshtein distance of two names, for "did you mean" hints. */
    public static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    static Executor background(ModuleServices services) {
        if (services.background() != null) {
            return services.background();
        }
        return r -> {
            Thread t = new Thread(r, "irmi-adaptation-background");
            t.setDaemon(true);
            t.start();
        };
    }

    /** {@code reject}: kind, minorCode, reason. */
    public static final class Reject implements AdaptationModuleProvider {
        public static final String DEFAULT_REASON = "rejected by an I-RMI isolation point";

        @Override
        public String name() {
            return RejectModule.NAME;
        }

        @Override
        public AdaptationModule create(ModuleSettings s) {
            allowOnly(s, "kind", "minorCode", "reason");
            String kindText = s.string("kind", "TRANSIENT").trim().toUpperCase(Locale.ROOT);
            SystemExceptionKind kind;
            try {
                kind = SystemExceptionKind.valueOf(kindText);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("adaptation module `reject`: parameter `kind` "
                        + "must be TRANSIENT or NO_RESOURCES, was `" + kindText + "`");
            }
            Integer minor = s.raw("minorCode").isPresent()
                    ? (int) s.integer("minorCode", 0, 0, 0xFFFFFFFFL) : null;
            return new RejectModule(kind, minor, s.string("reason", DEFAULT_REASON));
        }
    }

    /** {@code short-circuit}: result, dropOneways. */
    public static final class ShortCircuit implements AdaptationModuleProvider {
        @Override
        public String name() {
            return ShortCircuitModule.NAME;
        }

        @Override
        public AdaptationModule create(ModuleSettings s) {
            allowOnly(s, "result", "dropOneways");
            String result = s.string("result", null);
            return new ShortCircuitModule(result == null || result.isEmpty() ? null : result,
                    s.flag("dropOneways", true));
        }
    }

    /** {@code reroute}: replicas (required), refresh. */
    public static final class Reroute implements AdaptationModuleProvider {
        @Override
        public String name() {
            return RerouteModule.NAME;
        }

        @Override
        public AdaptationModule create(ModuleSettings s) {
            allowOnly(s, "replicas", "namingService", "refresh");
            String replicas = s.string("replicas", null);
            if (replicas == null || replicas.isBlank()) {
                throw new IllegalArgumentException("adaptation module `reroute`: parameter "
                        + "`replicas` is required (the Naming Service name of the replicas)");
            }
            ModuleServices services = services(s);
            long refresh = s.nanos("refresh", Duration.ofSeconds(30), Duration.ofMillis(1),
                    Duration.ofHours(1));
            String namingService = s.string("namingService", null);
            ReplicaResolver resolver = services.replicaResolver();
            if (resolver != null && namingService != null && !namingService.isBlank()) {
                String url = namingService.trim();
                resolver = resolver.at(url).orElseThrow(() -> new IllegalArgumentException(
                        "adaptation module `reroute`: parameter `namingService` (" + url + ") cannot be used: "
                                + "this host's replica resolver looks only in its own naming service"));
            }
            return new RerouteModule(replicas, resolver, refresh,
                    background(services), s.fallbackModule(), services.nanoClock().getAsLong());
        }
    }

    /** {@code defer}: capacity, retryDelay, maxRetries, whenFull, manualTick. */
    public static final class Defer implements AdaptationModuleProvider {
        @Override
        public String name() {
            return DeferModule.NAME;
        }

        @Override
        public AdaptationModule create(ModuleSettings s) {
            allowOnly(s, "capacity", "retryDelay", "maxRetries", "whenFull", "manualTick");
            String wf = s.string("whenFull", "reject").trim().toLowerCase(Locale.ROOT);
            DeferQueue.WhenFull whenFull = switch (wf) {
                case "reject" -> DeferQueue.WhenFull.REJECT;
                case "drop-oldest" -> DeferQueue.WhenFull.DROP_OLDEST;
                case "short-circuit" -> DeferQueue.WhenFull.SHORT_CIRCUIT;
                default -> throw new IllegalArgumentException("adaptation module `defer`: parameter"
                        + " `whenFull` must be reject, drop-oldest or short-circuit, was `" + wf
                        + "`");
            };
            return new DeferModule((int) s.integer("capacity", 1000, 1, 1_000_000),
                    s.nanos("retryDelay", Duration.ofMillis(100), Duration.ofMillis(1),
                            Duration.ofHours(1)),
                    (int) s.integer("maxRetries", 3, 0, 1000), whenFull,
                    s.flag("manualTick", false), services(s).nanoClock());
        }
    }

    /** {@code degrade}: reducer (required, registered in {@link ModuleServices}). */
    public static final class Degrade implements AdaptationModuleProvider {
        @Override
        public String name() {
            return DegradeModule.NAME;
        }

        @Override
        public AdaptationModule create(ModuleSettings s) {
            allowOnly(s, "reducer");
            String name = s.string("reducer", null);
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("adaptation module `degrade`: parameter "
                        + "`reducer` is required (the name the application registered)");
            }
            ParameterReducer r = services(s).reducers().get(name);
            if (r == null) {
                throw new IllegalArgumentException("adaptation module `degrade`: no parameter "
                        + "reducer is registered as `" + name + "`; register one with "
                        + "ModuleServices.builder().reducer(\"" + name + "\", reducer); registered: "
                        + services(s).reducers().keySet());
            }
            return new DegradeModule(r, s.fallbackModule());
        }
    }

    /** {@code throttle}: rate (required), burst. */
    public static final class Throttle implements AdaptationModuleProvider {
        @Override
        public String name() {
            return ThrottleModule.NAME;
        }

        @Override
        public AdaptationModule create(ModuleSettings s) {
            allowOnly(s, "rate", "burst");
            if (s.raw("rate").isEmpty()) {
                throw new IllegalArgumentException("adaptation module `throttle`: parameter `rate`"
                        + " is required (calls per second)");
            }
            double rate = s.decimal("rate", 1, 1e-9, 1e9);
            return new ThrottleModule(rate, (int) s.integer("burst", 10, 1, 1_000_000_000),
                    services(s).nanoClock());
        }
    }

    /** {@code adaptive-limit}: algorithm and its parameters. */
    public static final class AdaptiveLimit implements AdaptationModuleProvider {
        @Override
        public String name() {
            return AdaptiveLimitModule.NAME;
        }

        @Override
        public AdaptationModule create(ModuleSettings s) {
            allowOnly(s, "algorithm", "initialLimit", "minLimit", "maxLimit", "smoothing",
                    "rttTolerance", "longWindow", "queueSize", "backoffRatio", "increase",
                    "timeout");
            int initial = (int) s.integer("initialLimit", 20, 1, 100_000);
            int min = (int) s.integer("minLimit", 1, 1, 100_000);
            int max = (int) s.integer("maxLimit", 1000, 1, 100_000);
            String algorithm = s.string("algorithm", "gradient").trim().toLowerCase(Locale.ROOT);
            LimitAlgorithm a = switch (algorithm) {
                case "gradient" -> new GradientLimit(initial, min, max,
                        s.decimal("smoothing", 0.2, 1e-9, 1.0),
                        s.decimal("rttTolerance", 1.5, 1.0, 100.0),
                        (int) s.integer("longWindow", 600, 10, 100_000),
                        (int) s.integer("queueSize", 4, 0, 10_000));
                case "aimd" -> new AimdLimit(initial, min, max,
                        s.decimal("backoffRatio", 0.9, 0.5, 0.99),
                        (int) s.integer("increase", 1, 1, 1000),
                        s.nanos("timeout", Duration.ofSeconds(5), Duration.ofMillis(1),
                                Duration.ofHours(1)));
                default -> throw new IllegalArgumentException("adaptation module `adaptive-limit`:"
                        + " parameter `algorithm` must be gradient or aimd, was `" + algorithm + "`");
            };
            return new AdaptiveLimitModule(a);
        }
    }
}
