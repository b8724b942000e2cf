package org.irmi.orb.internal;

import org.irmi.orb.IrmiHooks;
import org.irmi.orb.ReplyContextProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place the reply service contexts of the hooks' {@link ReplyContextProvider}s are
 * built: for JacORB's replies (through the server interceptor) and for the replies the selector
 * thread writes itself (rejections, forwards).
 *
 * <p>A provider's context goes with a reply unless the reply's connection already had that
 * version of it ({@link ReplyContextProvider#contextVersion}); with no connection every context
 * goes. A provider that throws is logged and left out of that reply.
 *
 * <p>THREADING: stateless; the connection's version record is its own.
 */
final class ReplyContexts {

    private static final Logger LOG = LoggerFactory.getLogger(ReplyContexts.class);

    /** Receives one context of a reply. */
    @FunctionalInterface
    interface Sink {
        void add(int contextId, byte[] data);
    }

    private ReplyContexts() {
    }

    /**
     * @param connection the reply's connection, whose versions already sent are skipped; null to send every context
     * @return how many contexts went to the sink
     */
    static int collect(IrmiHooks hooks, String operation, boolean exceptionReply, IrmiServerGIOPConnection connection,
                       Sink sink) {
        int n = 0;
        for (ReplyContextProvider p : hooks.replyContextProviders()) {
            try {
                long version = p.contextVersion();
                if (version >= 0 && connection != null && !connection.takeContextVersion(p.contextId(), version)) {
                    continue; // this connection has this version already
                }
                byte[] data = p.contextData(operation, exceptionReply);
                if (data != null) {
                    sink.add(p.contextId(), data);
                    n++;
                }
            } catch (RuntimeException e) {
                LOG.warn("reply context provider failed: {}", e.toString());
            }
        }
        return n;
    }
}
