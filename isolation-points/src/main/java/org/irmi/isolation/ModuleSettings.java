package org.irmi.isolation;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.irmi.sla.internal.Units;

/**
 * The parameters an SLA gives one adaptation module, plus the services it may use (a monotonic
 * clock, a replica resolver, an application's parameter reducer). Values may be numbers, {@link
 * Duration}s or strings written with the SLA's units ({@code 250ms}, {@code 5s}, {@code 64KiB},
 * {@code 80%}; the SLA's one unit parser reads them, so a parameter is spelled the same in a
 * module's settings as anywhere else in the SLA); the typed getters convert and name the parameter
 * in every error.
 *
 * @param module   the module's name, for error messages
 * @param params   the parameters, unmodifiable
 * @param services services by type (e.g. {@code ReplicaResolver}), unmodifiable
 * @param nanoClock the monotonic clock in nanoseconds (the only clock a module may read)
 * @param fallback  the module to use when this one cannot act (the SLA's {@code fallback}), or null
 */
public record ModuleSettings(String module, Map<String, Object> params,
                             Map<Class<?>, Object> services, LongSupplier nanoClock,
                             AdaptationModule fallback) {
    private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?[0-9]+");

    public ModuleSettings {
        Objects.requireNonNull(module, "module");
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        services = Collections.unmodifiableMap(new LinkedHashMap<>(services));
        Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** @return settings with no parameters and no services, on the system clock. */
    public static ModuleSettings of(String module) {
        return new ModuleSettings(module, Map.of(), Map.of(), System::nanoTime, null);
    }

    /** @return a copy with one more parameter. */
    public ModuleSettings with(String key, Object value) {
        Map<String, Object> p = new LinkedHashMap<>(params);
        p.put(key, value);
        return new ModuleSettings(module, p, services, nanoClock, fallback);
    }

    /** @return a copy with one more service. */
    public <T> ModuleSettings withService(Class<T> type, T service) {
        Map<Class<?>, Object> s = new LinkedHashMap<>(services);
        s.put(type, service);
        return new ModuleSettings(module, params, s, nanoClock, fallback);
    }

    /** @return a copy on another clock. */
    public ModuleSettings withClock(LongSupplier clock) {
        return new ModuleSettings(module, params, services, clock, fallback);
    }

    /** @return a copy with a fallback module. */
    public ModuleSettings withFallback(AdaptationModule fallbackModule) {
        return new ModuleSettings(module, params, services, nanoClock, fallbackModule);
    }

    /** @return the fallback module, if the SLA gave one. */
    public Optional<AdaptationModule> fallbackModule() {
        return Optional.ofNullable(fallback);
    }

    /** @return the service of that type, if one was given. */
    public <T> Optional<T> service(Class<T> type) {
        return Optional.ofNullable(type.cast(services.get(type)));
    }

    /** @return the raw parameter, if present. */
    public Optional<Object> raw(String key) {
        return Optional.ofNullable(params.get(key));
    }

    /** @return a string parameter or the default. */
    public String string(String key, String def) {
        Object v = params.get(key);
        return v == null ? def : v.toString();
    }

    /** @return a long parameter within [min, max] (a count, or a size such as {@code 64KiB}), or the default. */
    public long integer(String key, long def, long min, long max) {
        Object v = params.get(key);
        long value;
        if (v == null) {
            value = def;
        } else if (v instanceof Number n) {
            value = n.longValue();
        } else {
            String text = v.toString().trim();
            value = parsed(key, () -> WHOLE_NUMBER.matcher(text).matches() ? Long.parseLong(text)
                    : Units.parseBytes(text));
        }
        return check(key, value, min, max);
    }

    /** @return a double parameter within [min, max] ({@code 80%} is 0.8), or the default. */
    public double decimal(String key, double def, double min, double max) {
        Object v = params.get(key);
        double value;
        if (v == null) {
            value = def;
        } else if (v instanceof Number n) {
            value = n.doubleValue();
        } else {
            String text = v.toString().trim();
            value = parsed(key, () -> text.endsWith("%") ? Units.parsePercent(text) / 100.0
                    : Double.parseDouble(text));
        }
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException(where(key) + " must be between " + min + " and "
                    + max + ", was " + value);
        }
        return value;
    }

    /** @return a duration parameter in nanoseconds within [min, max], or the default. */
    public long nanos(String key, Duration def, Duration min, Duration max) {
        Object v = params.get(key);
        long value;
        if (v == null) {
            value = def.toNanos();
        } else if (v instanceof Duration d) {
            value = d.toNanos();
        } else if (v instanceof Number n) {
            throw new IllegalArgumentException(where(key) + " needs a unit (e.g. `" + n
                    + "ms`), was " + n);
        } else {
            value = parsed(key, () -> Units.parseDuration(v.toString()).toNanos());
        }
        if (value < min.toNanos() || value > max.toNanos()) {
            throw new IllegalArgumentException(where(key) + " must be between " + min + " and "
                    + max + ", was " + Duration.ofNanos(value));
        }
        return value;
    }

    /** @return a boolean parameter, or the default. */
    public boolean flag(String key, boolean def) {
        Object v = params.get(key);
        if (v == null) {
            return def;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = v.toString().trim();
        if (s.equalsIgnoreCase("true")) {
            return true;
        }
        if (s.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(where(key) + " must be true or false, was `" + s + "`");
    }

    private long check(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(where(key) + " must be between " + min + " and "
                    + max + ", was " + value);
        }
        return value;
    }

    private <T> T parsed(String key, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where(key) + ": expected a number, got `" + params.get(key)
                    + "`", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where(key) + ": " + e.getMessage(), e);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(where(key) + ": `" + params.get(key) + "` is too large", e);
        }
    }

    private String where(String key) {
        return "adaptation module `" + module + "`: parameter `" + key + "`";
    }
}
