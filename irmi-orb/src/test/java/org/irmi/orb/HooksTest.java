package org.irmi.orb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import irmitest.Echo;
import irmitest.EchoHelper;
import irmitest.Refused;

import org.irmi.monitors.ManualClock;
import org.irmi.monitors.RequestCostSampler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.ORB;
import org.omg.CORBA.TRANSIENT;

/** Each hook of the I-RMI ORB, through real ORBs on loopback. */
class HooksTest {

    private static final int CONTEXT_ID = 0x49520010;

    private ORB server;
    private ORB client;
    private Echo echo;
    private byte[] key;
    private final AtomicInteger servantCalls = new AtomicInteger();

    @BeforeEach
    void start() {
        server = Orbs.irmi();
        client = Orbs.irmi();
        String ior = Orbs.serve(server, new EchoServant() {
            @Override
            public String echoString(String s) {
                servantCalls.incrementAndGet();
                return s;
            }
        });
        echo = EchoHelper.narrow(client.string_to_object(ior));
        key = GiopClient.objectKey(client.string_to_object(ior));
    }

    @AfterEach
    void tearDown() {
        Orbs.destroy(client, server);
    }

    private IrmiHooks serverHooks() {
        return IrmiORB.of(server).orElseThrow().hooks();
    }

    private IrmiHooks clientHooks() {
        return IrmiORB.of(client).orElseThrow().hooks();
    }

    @Test
    void shouldFailCallWithSystemExceptionWhenClientHookSaysFail() {
        List<ClientCall> seen = new CopyOnWriteArrayList<>();
        clientHooks().setClientCallHook(call -> {
            seen.add(call);
            return ClientDecision.fail(Rejection.transientFailure(42, "no"));
        });
        long readBefore = Orbs.transport(server).stats().messagesRead();
        assertThatThrownBy(() -> echo.echoString("x")).isInstanceOfSatisfying(TRANSIENT.class,
                e -> assertThat(e.minor).isEqualTo(42));
        assertThat(seen).singleElement().satisfies(c -> {
            assertThat(c.operation()).isEqualTo("echoString");
            assertThat(c.typeId()).isEqualTo("IDL:irmitest/Echo:1.0");
            assertThat(c.targetKey()).startsWith("127.0.0.1:" + Orbs.transport(server).port() + "/");
        });
        assertThat(Orbs.transport(server).stats().messagesRead()).isEqualTo(readBefore);
        assertThat(servantCalls).hasValue(0);
    }

    @Test
    void shouldReachOtherObjectWhenClientHookForwards() {
        String other = Orbs.serve(server, new EchoServant() {
            @Override
            public String echoString(String s) {
                return "other:" + s;
            }
        });
        List<String> asked = new CopyOnWriteArrayList<>();
        clientHooks().setClientCallHook(call -> {
            asked.add(call.operation());
            return java.util.Arrays.equals(call.objectKey(), key) ? ClientDecision.forward(other) : ClientDecision.proceed();
        });
        assertThat(echo.echoString("x")).isEqualTo("other:x");
        assertThat(servantCalls).hasValue(0);
        assertThat(asked).containsExactly("echoString");
    }

    @Test
    void shouldReportEndOfCallWhenClientHookProceeds() {
        List<CallOutcome> ends = new CopyOnWriteArrayList<>();
        clientHooks().setClientCallHook(new ClientCallHook() {
            @Override
            public ClientDecision beforeCall(ClientCall call) {
                return ClientDecision.proceed();
            }

            @Override
            public void afterCall(ClientCall call, long roundTripNanos, CallOutcome outcome) {
                assertThat(roundTripNanos).isPositive();
                assertThat(call.targetHost()).isEqualTo("127.0.0.1");
                assertThat(call.objectKey()).isEqualTo(key);
                ends.add(outcome);
            }
        });
        assertThat(echo.echoString("x")).isEqualTo("x");
        assertThatThrownBy(() -> echo.fail("y")).isInstanceOf(Refused.class);
        assertThat(servantCalls).hasValue(1);
        assertThat(ends).containsExactly(CallOutcome.REPLY, CallOutcome.USER_EXCEPTION);
    }

    @Test
    void shouldFailIdlCallWhenClientHookShortCircuits() {
        clientHooks().setClientCallHook(call -> ClientDecision.shortCircuit("local"));
        assertThatThrownBy(() -> echo.echoString("x")).isInstanceOfSatisfying(TRANSIENT.class,
                e -> assertThat(e.minor).isEqualTo(ClientDecision.MINOR_SHORT_CIRCUIT_UNSUPPORTED));
        assertThat(servantCalls).hasValue(0);
    }

    @Test
    void shouldAnswerOnReaderThreadWithoutDispatchWhenServerHookRejects() {
        List<RequestHeader> seen = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        serverHooks().setServerRequestHook(h -> {
            seen.add(h);
            threads.add(Thread.currentThread().getName());
            byte[] arg = new byte[h.arguments().getInt() - 1];
            h.arguments().duplicate().position(4).get(arg);
            boolean poison = new String(arg, StandardCharsets.ISO_8859_1).startsWith("poison");
            return poison ? Optional.of(Rejection.transientFailure(7, "poison")) : Optional.empty();
        });
        assertThatThrownBy(() -> echo.echoString("poison pill")).isInstanceOfSatisfying(TRANSIENT.class,
                e -> assertThat(e.minor).isEqualTo(7));
        assertThat(servantCalls).hasValue(0);
        assertThat(echo.echoString("healthy")).isEqualTo("healthy");
        assertThat(servantCalls).hasValue(1);
        assertThat(threads).containsOnly(IrmiTransport.READER_THREAD_NAME);
        RequestHeader first = seen.get(0);
        assertThat(first.operation()).isEqualTo("echoString");
        assertThat(first.objectKey()).isEqualTo(key);
        assertThat(first.connectionId()).isPositive();
        assertThat(first.peerAddress()).startsWith("127.0.0.1:");
        assertThat(first.messageBytes()).isGreaterThan(12 + "poison pill".length());
        assertThat(first.responseExpected()).isTrue();
        assertThat(Orbs.transport(server).stats().earlyRejections()).isEqualTo(1);
    }

    @Test
    void shouldForwardClientWithLocationForwardWhenServerHookForwards() {
        String other = Orbs.serve(server, new EchoServant() {
            @Override
            public String echoString(String s) {
                return "other:" + s;
            }
        });
        List<String> forwardedOps = new CopyOnWriteArrayList<>();
        serverHooks().setServerRequestHook(new ServerRequestHook() {
            @Override
            public Optional<Rejection> onRequest(RequestHeader h) {
                return Optional.empty();
            }

            @Override
            public ServerVerdict decide(RequestHeader h) {
                if (java.util.Arrays.equals(h.objectKey(), key)) {
                    forwardedOps.add(h.operation());
                    return ServerVerdict.forward(other);
                }
                return ServerVerdict.PROCEED;
            }
        });
        assertThat(echo.echoString("x")).isEqualTo("other:x");
        assertThat(servantCalls).hasValue(0);
        assertThat(forwardedOps).containsExactly("echoString");
    }

    @Test
    void shouldReportCpuAndAllocationPerRequestWhenCostListenerIsSet() {
        List<RequestCost> costs = new CopyOnWriteArrayList<>();
        serverHooks().setRequestCostListener(costs::add);
        echo.echoBytes(new byte[1024 * 1024]);
        assertThat(costs).singleElement().satisfies(c -> {
            assertThat(c.operation()).isEqualTo("echoBytes");
            assertThat(c.allocatedBytes()).isGreaterThanOrEqualTo(1024 * 1024);
            assertThat(c.cpuNanos()).isPositive();
            assertThat(c.elapsedNanos()).isGreaterThanOrEqualTo(c.cpuNanos() / 4);
            assertThat(c.peerAddress()).startsWith("127.0.0.1:");
            assertThat(c.connectionId()).isPositive();
            assertThat(c.objectKey()).isEqualTo(key);
            assertThat(c.outcome()).isEqualTo(CallOutcome.REPLY);
        });
    }

    @Test
    void shouldSampleCpuOfBusyOperationsButMeasureAllocationOfEveryRequest() throws Exception {
        serverHooks().setCpuSampleEvery(1_000_000);
        List<RequestCost> costs = new CopyOnWriteArrayList<>();
        serverHooks().setRequestCostListener(costs::add);
        Thread[] callers = new Thread[8];
        for (int t = 0; t < callers.length; t++) {
            callers[t] = new Thread(() -> {
                for (int i = 0; i < 250; i++) {
                    echo.echoBytes(new byte[100]);
                }
            });
            callers[t].start();
        }
        for (Thread t : callers) {
            t.join(60_000);
        }
        assertThat(costs).hasSize(2000).allSatisfy(c -> assertThat(c.allocatedBytes()).isNotNegative());
        assertThat(costs).anySatisfy(c -> assertThat(c.cpuNanos()).isEqualTo(-1))
                .anySatisfy(c -> assertThat(c.cpuNanos()).isNotNegative());
    }

    @Test
    void shouldMeasureCpuOfEveryRequestOfARareOperation() throws Exception {
        serverHooks().setCpuSampleEvery(1_000_000);
        ManualClock clock = new ManualClock();
        serverHooks().setClock(clock);
        List<RequestCost> costs = new CopyOnWriteArrayList<>();
        serverHooks().setRequestCostListener(costs::add);
        for (int i = 0; i < 5; i++) {
            echo.echoString("rare");
            clock.advanceNanos(RequestCostSampler.QUIET_NANOS); // the operation has been quiet long enough
        }
        assertThat(costs).hasSize(5).allSatisfy(c -> assertThat(c.cpuNanos()).isNotNegative());
    }

    @Test
    void shouldRefuseACpuSampleRateBelowOne() {
        assertThatThrownBy(() -> serverHooks().setCpuSampleEvery(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(IrmiHooks.CPU_SAMPLE_EVERY_PROPERTY);
        assertThatThrownBy(() -> Orbs.irmi(IrmiHooks.CPU_SAMPLE_EVERY_PROPERTY, "often"))
                .isInstanceOf(org.omg.CORBA.INITIALIZE.class).hasMessageContaining("often");
    }

    @Test
    void shouldSendTheStreamTagOfTheOrbOrOfTheCallingThread() {
        List<String> tags = new CopyOnWriteArrayList<>();
        serverHooks().setServerRequestHook(h -> {
            byte[] data = h.serviceContexts().get(StreamTag.SERVICE_CONTEXT_ID);
            tags.add(data == null ? "-" : new String(data, StandardCharsets.US_ASCII));
            return Optional.empty();
        });
        echo.echoString("untagged");
        clientHooks().setDefaultStreamTag("bulk");
        echo.echoString("orb default");
        try (StreamTag.Scope outer = StreamTag.use("report:q3")) {
            echo.echoString("thread");
            try (StreamTag.Scope inner = StreamTag.use("urgent")) {
                echo.echoString("nested");
            }
            echo.echoString("outer again");
        }
        echo.echoString("orb default again");
        assertThat(tags).containsExactly("-", "bulk", "report:q3", "urgent", "report:q3", "bulk");
        assertThat(StreamTag.current()).isEmpty();
    }

    @Test
    void shouldTagEveryRequestWithTheOrbPropertyAndRefuseAnInvalidTag() {
        ORB tagged = Orbs.irmi(StreamTag.PROPERTY, "batch-7");
        try {
            assertThat(IrmiORB.of(tagged).orElseThrow().hooks().defaultStreamTag()).isEqualTo("batch-7");
        } finally {
            Orbs.destroy(tagged);
        }
        assertThatThrownBy(() -> Orbs.irmi(StreamTag.PROPERTY, "has space")).isInstanceOf(org.omg.CORBA.INITIALIZE.class)
                .hasMessageContaining(StreamTag.PROPERTY).hasMessageContaining("has space");
        assertThatThrownBy(() -> StreamTag.use("x".repeat(65))).isInstanceOf(IllegalArgumentException.class);
        assertThat(StreamTag.decode("ok.tag".getBytes(StandardCharsets.US_ASCII))).isEqualTo("ok.tag");
        assertThat(StreamTag.decode(new byte[] {'a', 0, 'b'})).isNull();
        assertThat(StreamTag.decode(new byte[0])).isNull();
    }

    @Test
    void shouldSendAVersionedReplyContextOncePerVersionAndConnection() {
        java.util.concurrent.atomic.AtomicLong version = new java.util.concurrent.atomic.AtomicLong(1);
        serverHooks().addReplyContextProvider(new ReplyContextProvider() {
            @Override
            public int contextId() {
                return CONTEXT_ID;
            }

            @Override
            public byte[] contextData(String operation, boolean exceptionReply) {
                return ("v" + version.get()).getBytes(StandardCharsets.US_ASCII);
            }

            @Override
            public long contextVersion() {
                return version.get();
            }
        });
        List<String> received = new CopyOnWriteArrayList<>();
        ReplyContextListener listener = new ReplyContextListener() {
            @Override
            public int contextId() {
                return CONTEXT_ID;
            }

            @Override
            public void onReplyContext(ClientCall call, byte[] data) {
                received.add(new String(data, StandardCharsets.US_ASCII));
            }
        };
        clientHooks().addReplyContextListener(listener);
        for (int i = 0; i < 3; i++) {
            echo.echoString("a");
        }
        version.set(2);
        echo.echoString("b");
        assertThatThrownBy(() -> echo.fail("c")).isInstanceOf(Refused.class);
        assertThat(received).containsExactly("v1", "v2");

        ORB second = Orbs.irmi(); // another connection gets the current version on its first reply
        try {
            IrmiORB.of(second).orElseThrow().hooks().addReplyContextListener(listener);
            EchoHelper.narrow(second.string_to_object(client.object_to_string(echo))).echoString("d");
        } finally {
            Orbs.destroy(second);
        }
        assertThat(received).containsExactly("v1", "v2", "v2");
    }

    @Test
    void shouldCarryReplyContextToClientOnRepliesAndExceptions() {
        serverHooks().addReplyContextProvider(new ReplyContextProvider() {
            @Override
            public int contextId() {
                return CONTEXT_ID;
            }

            @Override
            public byte[] contextData(String operation, boolean exceptionReply) {
                return (operation + (exceptionReply ? ":exception" : ":ok")).getBytes(StandardCharsets.US_ASCII);
            }
        });
        List<String> received = new CopyOnWriteArrayList<>();
        clientHooks().addReplyContextListener(new ReplyContextListener() {
            @Override
            public int contextId() {
                return CONTEXT_ID;
            }

            @Override
            public void onReplyContext(ClientCall call, byte[] data) {
                assertThat(call.targetPort()).isEqualTo(Orbs.transport(server).port());
                received.add(new String(data, StandardCharsets.US_ASCII));
            }
        });
        echo.echoString("a");
        assertThatThrownBy(() -> echo.fail("b")).isInstanceOf(Refused.class);
        serverHooks().setServerRequestHook(h -> Optional.of(Rejection.transientFailure(1, "early")));
        assertThatThrownBy(() -> echo.echoString("c")).isInstanceOf(TRANSIENT.class);
        assertThat(received).containsExactly("echoString:ok", "fail:exception", "echoString:exception");
    }
}
