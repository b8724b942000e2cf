package org.irmi.orb.internal.rmi;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.rmi.Remote;

import javax.rmi.CORBA.Util;

import com.sun.corba.ee.spi.presentation.rmi.DynamicMethodMarshaller;
import com.sun.corba.ee.spi.presentation.rmi.PresentationManager;

import org.irmi.orb.CallOutcome;
import org.irmi.orb.ClientCall;
import org.irmi.orb.ClientCallHook;
import org.irmi.orb.ClientDecision;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.internal.ClientHooks;
import org.irmi.orb.internal.Corba;
import org.omg.CORBA.SystemException;
import org.omg.CORBA.portable.ApplicationException;
import org.omg.CORBA.portable.InputStream;
import org.omg.CORBA.portable.ObjectImpl;
import org.omg.CORBA.portable.RemarshalException;

/**
 * I-RMI's dynamic RMI-IIOP stubs for JacORB references: a {@link Proxy} of the Remote interface
 * whose calls are marshalled with GlassFish's presentation manager (the same IDL names and value
 * encoding its dynamic ties use on the server). The client call hook runs before marshalling.
 */
public final class RmiStubs {

    private static final PresentationManager PM = com.sun.corba.ee.spi.orb.ORB.getPresentationManager();

    private RmiStubs() {
    }

    /** A stub of {@code type} calling {@code target}. */
    public static <T extends Remote> T create(ObjectImpl target, Class<T> type) {
        Handler h = new Handler(target, type);
        Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type, IrmiRemoteStub.class}, h);
        return type.cast(proxy);
    }

    private static final class Handler implements InvocationHandler {
        private final ObjectImpl target;
        private final Class<?> type;
        private final PresentationManager.ClassData classData;

        Handler(ObjectImpl target, Class<?> type) {
            this.target = target;
            this.type = type;
            this.classData = PM.getClassData(type);
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "IrmiRemoteStub[" + type.getName() + " -> " + Corba.targetKey(target) + "]";
                };
            }
            if (method.getDeclaringClass() == IrmiRemoteStub.class) {
                return target;
            }
            String operation = classData.getIDLNameTranslator().getIDLName(method);
            DynamicMethodMarshaller dmm = PM.getDynamicMethodMarshaller(method);
            Object[] arguments = args == null ? new Object[0] : args;
            IrmiORB orb = IrmiORB.of(target._orb()).orElse(null);
            ClientCallHook hook = orb == null ? null : orb.hooks().clientCallHook();
            if (orb == null || (hook == null && orb.hooks().replyContextListeners().isEmpty())) {
                return call(target, operation, dmm, arguments);
            }
            ObjectImpl to = target;
            ClientCall call = Corba.call(target, operation, false, true, arguments);
            if (hook != null) {
                ClientDecision d = hook.beforeCall(call);
                switch (d.kind()) {
                    case FAIL:
                        throw Util.mapSystemException(Corba.toSystemException(d.rejection()));
                    case SHORT_CIRCUIT:
                        try {
                            return ShortCircuitResult.of(method.getReturnType(), d.result());
                        } catch (IllegalArgumentException unconvertible) {
                            throw javax.rmi.CORBA.Util.mapSystemException(
                                    new org.omg.CORBA.BAD_PARAM(unconvertible.getMessage()));
                        }
                    case FORWARD:
                        to = (ObjectImpl) orb.string_to_object(d.forwardTo());
                        break;
                    default:
                        break;
                }
            }
            org.irmi.monitors.Clock clock = orb.hooks().clock();
            long start = clock.nanoTime();
            CallOutcome outcome = CallOutcome.SYSTEM_EXCEPTION;
            ClientHooks.enterStubCall(call);
            try {
                Object result = call(to, operation, dmm, arguments);
                outcome = CallOutcome.REPLY;
                return result;
            } catch (java.rmi.RemoteException e) {
                throw e;
            } catch (Exception declared) {
                outcome = CallOutcome.USER_EXCEPTION;
                throw declared;
            } finally {
                ClientHooks.exitStubCall();
                if (hook != null) {
                    hook.afterCall(call, clock.nanoTime() - start, outcome);
                }
            }
        }

        private static Object call(ObjectImpl to, String operation, DynamicMethodMarshaller dmm, Object[] args)
                throws Throwable {
            while (true) {
                InputStream in = null;
                try {
                    org.omg.CORBA_2_3.portable.OutputStream out =
                            (org.omg.CORBA_2_3.portable.OutputStream) to._request(operation, true);
                    dmm.writeArguments(out, args);
                    in = to._invoke(out);
                    return dmm.readResult((org.omg.CORBA_2_3.portable.InputStream) in);
                } catch (ApplicationException ae) {
                    throw dmm.readException(ae);
                } catch (RemarshalException again) {
                    continue;
                } catch (SystemException se) {
                    throw Util.mapSystemException(se);
                } finally {
                    to._releaseReply(in);
                }
            }
        }
    }
}
