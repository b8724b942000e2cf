package org.irmi.orb.isolation;

import java.util.function.Consumer;

import org.irmi.isolation.RemoteLoad;
import org.irmi.monitors.Clock;
import org.irmi.monitors.LoadReportCodec;
import org.irmi.monitors.LoadReporter;
import org.irmi.orb.ClientCall;
import org.irmi.orb.ReplyContextListener;
import org.irmi.orb.ReplyContextProvider;

/**
 * The load-report service context ({@link LoadReportCodec#SERVICE_CONTEXT_ID}) on both sides: the
 * server attaches this node's report to its replies, and the client decodes the report of each
 * reply for the slow-client point.
 */
final class LoadReportContexts {

    private LoadReportContexts() {
    }

    /**
     * @return the provider that attaches {@code reporter}'s report to replies; a connection is sent
     *         a report again only when its version changed (every 100 ms, or at once when a flag
     *         changes). Dispatch and selector threads; never blocks.
     */
    static ReplyContextProvider onReplies(LoadReporter reporter) {
        return new ReplyContextProvider() {
            @Override
            public int contextId() {
                return LoadReportCodec.SERVICE_CONTEXT_ID;
            }

            @Override
            public byte[] contextData(String operation, boolean exceptionReply) {
                return reporter.encoded();
            }

            @Override
            public long contextVersion() {
                return reporter.version(); // a new report every 100 ms, or at once when a flag changes
            }
        };
    }

    /**
     * @param clock stamps each report with its arrival ({@link Clock#nanoTime()})
     * @param sink  takes each decoded report, on the calling thread; a report that does not decode
     *              is ignored
     * @return the listener that reads the report of each reply at the client
     */
    static ReplyContextListener fromReplies(Clock clock, Consumer<RemoteLoad> sink) {
        return new ReplyContextListener() {
            @Override
            public int contextId() {
                return LoadReportCodec.SERVICE_CONTEXT_ID;
            }

            @Override
            public void onReplyContext(ClientCall call, byte[] data) {
                LoadReportCodec.tryDecode(data).ifPresent(r -> sink.accept(RemoteLoad.from(r, clock.nanoTime())));
            }
        };
    }
}
