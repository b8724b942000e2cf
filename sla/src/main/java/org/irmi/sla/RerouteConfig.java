package org.irmi.sla;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.irmi.sla.internal.Check;

/**
 * Module {@code reroute}: the call is forwarded to a replica bound in the CORBA Naming Service.
 *
 * @param replicas the Naming Service name of the replicas, in the string form of CosNaming
 *     ({@code "irmi/orders.replicas"}: components separated by {@code /}, kind after {@code .}); the name
 *     is either one object or a naming context whose bindings are the replicas
 * @param namingService where the Naming Service is ({@code corbaloc:...} or {@code corbaname:...});
 *     empty means the ORB's {@code NameService} initial reference
 * @param refresh how often the replicas are looked up again (1s to 1h, default 30s)
 */
public record RerouteConfig(String replicas, Optional<String> namingService, Duration refresh) implements ModuleConfig {

  public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(30);

  /** Validates every field. */
  public RerouteConfig {
    Objects.requireNonNull(namingService, "namingService");
    Check c = new Check();
    c.notBlank("replicas", replicas);
    if (replicas != null && !replicas.isBlank()) {
      if (replicas.startsWith("/") || replicas.endsWith("/") || replicas.contains("//")) {
        c.fail("replicas", "'" + replicas + "' has an empty name component; write components separated by single '/'");
      }
    }
    namingService.ifPresent(ns -> {
      if (!(ns.startsWith("corbaloc:") || ns.startsWith("corbaname:") || ns.startsWith("IOR:"))) {
        c.fail("namingService", "'" + ns + "' is not an object URL; write corbaloc:iiop:host:port/NameService");
      }
    });
    c.duration("refresh", refresh, Duration.ofSeconds(1), Duration.ofHours(1));
    c.throwIfAny();
  }

  /** Replicas under {@code replicas}, default Naming Service, default refresh. */
  public static RerouteConfig of(String replicas) {
    return new RerouteConfig(replicas, Optional.empty(), DEFAULT_REFRESH);
  }

  @Override
  public String name() {
    return REROUTE;
  }
}
