package org.irmi.adaptation.internal;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.irmi.adaptation.ReplicaResolver;
import org.irmi.isolation.AdaptationModule;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.sla.SystemExceptionKind;
import org.irmi.isolation.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Module {@code reroute}: forwards the call to a replica bound in the CORBA Naming Service (client:
 * the call is re-targeted; server: a LOCATION_FORWARD reply). Replicas are picked round-robin.
 *
 * <p>The lookup never runs on the deciding thread (which may be the reader): the first lookup
 * starts when the module is created, the replica list is refreshed on the background executor
 * when it is older than {@code refresh}, and decisions use the last list. Until a first list exists, or when it is empty, the call goes to the fallback
 * module, or is rejected with {@code TRANSIENT}, {@link MinorCodes#NO_REPLICA}.
 */
public final class RerouteModule implements AdaptationModule {
    public static final String NAME = org.irmi.sla.ModuleConfig.REROUTE;
    private static final Logger LOG = LoggerFactory.getLogger(RerouteModule.class);
    private final String replicasName;
    private final ReplicaResolver resolver;
    private final long refreshNanos;
    private final Executor background;
    private final Optional<AdaptationModule> fallback;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicLong next = new AtomicLong();
    private volatile List<ReplicaResolver.Replica> replicas;
    private volatile long fetchedAtNanos;

    public RerouteModule(String replicasName, ReplicaResolver resolver, long refreshNanos,
                         Executor background, Optional<AdaptationModule> fallback, long nowNanos) {
        this.replicasName = replicasName;
        this.resolver = resolver;
        this.refreshNanos = refreshNanos;
        this.background = background;
        this.fallback = fallback;
        if (resolver != null) {
            refresh(nowNanos); // the replicas are known before the first call needs them
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision decide(Trigger trigger) {
        long now = trigger.nowNanos();
        List<ReplicaResolver.Replica> list = replicas;
        if (resolver != null && (list == null || now - fetchedAtNanos >= refreshNanos)) {
            refresh(now);
            list = replicas;
        }
        if (list == null || list.isEmpty()) {
            return fallback.map(f -> f.decide(trigger)).orElseGet(() -> Decision.reject(
                    SystemExceptionKind.TRANSIENT, MinorCodes.NO_REPLICA, "no replica bound under `"
                            + replicasName + "` (" + trigger.operation() + ")"));
        }
        ReplicaResolver.Replica r = list.get((int) Math.floorMod(next.getAndIncrement(),
                (long) list.size()));
        return new Decision.Forward(r.name(), r.reference());
    }

    private void refresh(long now) {
        if (!refreshing.compareAndSet(false, true)) {
            return;
        }
        try {
            background.execute(() -> {
                try {
                    List<ReplicaResolver.Replica> found = List.copyOf(resolver.resolve(replicasName));
                    replicas = found;
                    fetchedAtNanos = now;
                    LOG.debug("reroute: {} replicas under {}", found.size(), replicasName);
                } catch (RuntimeException e) {
                    fetchedAtNanos = now; // retry after the refresh interval, keep the old list
                    LOG.warn("reroute: cannot look up replicas `{}` in the Naming Service: {}",
                            replicasName, e.toString());
                } finally {
                    refreshing.set(false);
                }
            });
        } catch (RuntimeException e) {
            refreshing.set(false);
            LOG.warn("reroute: cannot schedule the replica lookup: {}", e.toString());
        }
    }

    /** @return the replicas known now (empty before the first lookup). */
    public List<ReplicaResolver.Replica> replicas() {
        List<ReplicaResolver.Replica> l = replicas;
        return l == null ? List.of() : l;
    }
}
