package org.irmi.orb.isolation;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

import org.irmi.isolation.CallListener;
import org.irmi.isolation.Decision;
import org.irmi.isolation.MinorCodes;
import org.irmi.isolation.OutgoingCall;
import org.irmi.isolation.RemoteLoad;
import org.irmi.isolation.SlowClientGate;
import org.irmi.orb.CallOutcome;
import org.irmi.orb.ClientCall;
import org.irmi.orb.ClientCallHook;
import org.irmi.orb.ClientDecision;
import org.irmi.orb.Rejection;

/**
 * Client-side enforcement: every outgoing call asks the slow-client point before marshalling (RMI)
 * or in {@code send_request} (IDL), and its decision is enforced: reject, forward, short-circuit
 * and degrade for RMI, throttle and defer by waiting on the caller's thread. When the call ends, its
 * outcome goes to the decision's listener, and its round-trip time and the reply's load report
 * ({@link #onReplyLoad}) go back to the point.
 *
 * <p>THREADING: on each calling thread; the call in progress and its reply's load report are kept
 * per thread between {@code beforeCall} and {@code afterCall}.
 */
final class ClientEnforcement implements ClientCallHook {

    private final Supplier<RuntimeWiring> wiring;
    private final Function<org.omg.CORBA.Object, String> iors;
    // per calling thread: the call in progress and the load report of its reply
    private final ThreadLocal<Pending> pending = new ThreadLocal<>();
    private final ThreadLocal<RemoteLoad> replyLoad = new ThreadLocal<>();

    /** A call in progress; {@code toTarget} is false when it was sent elsewhere (forwarded). */
    private record Pending(OutgoingCall call, CallListener listener, boolean toTarget) {
    }

    /**
     * @param wiring the wiring in force, read once per call and once per reply
     * @param iors   stringifies a forward target (the ORB's {@code object_to_string})
     */
    ClientEnforcement(Supplier<RuntimeWiring> wiring, Function<org.omg.CORBA.Object, String> iors) {
        this.wiring = wiring;
        this.iors = iors;
    }

    /** The load report of the reply to this thread's call in progress (a reply context listener calls it). */
    void onReplyLoad(RemoteLoad load) {
        replyLoad.set(load);
    }

    @Override
    public ClientDecision beforeCall(ClientCall call) {
        pending.remove();
        replyLoad.remove();
        SlowClientGate point = wiring.get().slowClient();
        if (point == null) {
            return ClientDecision.proceed();
        }
        OutgoingCall oc = new OutgoingCall(call.targetHost(), call.targetPort(),
                new String(call.objectKey(), StandardCharsets.ISO_8859_1), call.operation(), call.oneway(),
                call.arguments(), -1);
        return enforce(point.beforeMarshalling(oc), call, oc);
    }

    private ClientDecision enforce(Decision d, ClientCall call, OutgoingCall oc) {
        if (d instanceof Decision.Proceed p) {
            pending.set(new Pending(oc, p.listener(), true));
            return ClientDecision.proceed();
        }
        if (d instanceof Decision.Reject r) {
            return ClientDecision.fail(new Rejection(r.kind().name(), r.minor(), Rejection.Completion.NO, r.reason()));
        }
        if (d instanceof Decision.Forward f) {
            pending.set(new Pending(oc, CallListener.NONE, false));
            Object t = f.target();
            return ClientDecision.forward(t instanceof org.omg.CORBA.Object o ? iors.apply(o) : t.toString());
        }
        if (d instanceof Decision.ShortCircuit s) {
            return ClientDecision.shortCircuit(s.result());
        }
        if (d instanceof Decision.Throttle t) {
            LockSupport.parkNanos(t.waitNanos()); // the action is to make this caller wait
            pending.set(new Pending(oc, CallListener.NONE, true));
            return ClientDecision.proceed();
        }
        if (d instanceof Decision.Defer df) {
            try {
                Decision next = df.release().toCompletableFuture().get(df.maxWaitNanos(), TimeUnit.NANOSECONDS);
                return enforce(next, call, oc);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (TimeoutException | ExecutionException e) {
                // fall through to the timeout rejection
            }
            df.onTimeout().run();
            return ClientDecision.fail(Rejection.transientFailure(MinorCodes.DEFER_TIMEOUT, "deferred call waited too long"));
        }
        if (d instanceof Decision.Degrade dg) {
            Object[] args = call.arguments();
            if (call.rmi() && args != null) {
                Object[] reduced = dg.reducer().reduce(call.operation(), args.clone());
                if (reduced != null && reduced.length == args.length) {
                    System.arraycopy(reduced, 0, args, 0, args.length); // the stub marshals this array
                }
            }
            pending.set(new Pending(oc, CallListener.NONE, true));
            return ClientDecision.proceed();
        }
        return ClientDecision.proceed();
    }

    @Override
    public void afterCall(ClientCall call, long roundTripNanos, CallOutcome outcome) {
        Pending p = pending.get();
        RemoteLoad load = replyLoad.get();
        pending.remove();
        replyLoad.remove();
        if (p == null) {
            return;
        }
        if (outcome == CallOutcome.SYSTEM_EXCEPTION) {
            p.listener().onDropped();
        } else {
            p.listener().onSuccess(roundTripNanos);
        }
        if (p.toTarget()) {
            // a forwarded call's round trip and load report belong to the replica, not the target
            wiring.get().runtime().slowClient().ifPresent(sc -> sc.onReply(p.call(), roundTripNanos, load));
        }
    }
}
