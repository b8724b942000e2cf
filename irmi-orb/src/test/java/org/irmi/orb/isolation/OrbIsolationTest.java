package org.irmi.orb.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import irmitest.Echo;
import irmitest.EchoHelper;
import irmitest.Refused;

import org.irmi.monitors.LoadReport;
import org.irmi.monitors.LoadReportCodec;
import org.irmi.monitors.ManualClock;
import org.irmi.orb.ClientCall;
import org.irmi.orb.ConnectionView;
import org.irmi.orb.IrmiORB;
import org.irmi.orb.ReplyContextListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.INITIALIZE;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/** The SLA glue: an I-RMI ORB started with {@code irmi.sla} builds and feeds its isolation points. */
class OrbIsolationTest {

    private static final String CROSSTALK_SLA = org.irmi.orb.TestSlas.CROSSTALK;

    @TempDir
    Path dir;

    /** The time of the isolation started with {@link #driven}; an hour in, so no window starts at 0. */
    private final ManualClock clock = new ManualClock(TimeUnit.HOURS.toNanos(1), ManualClock.DEFAULT_START_WALL_MILLIS);

    private ORB server;
    private ORB client;
    private OrbIsolation driven;

    @AfterEach
    void tearDown() {
        if (driven != null) {
            driven.close();
        }
        for (ORB o : new ORB[] {client, server}) {
            if (o != null) {
                o.shutdown(true);
                o.destroy();
            }
        }
    }

    private static ORB irmi(String sla) {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.irmi.orb.IrmiORB");
        p.setProperty("OAIAddr", "127.0.0.1");
        if (sla != null) {
            p.setProperty(OrbIsolation.SLA_PROPERTY, sla);
        }
        return ORB.init(new String[0], p);
    }

    private Echo serve(String slaPath) throws Exception {
        server = irmi(slaPath);
        client = irmi(null);
        POA root = POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        org.omg.CORBA.Object ref = root.servant_to_reference(new org.irmi.orb.EchoServant());
        return EchoHelper.narrow(client.string_to_object(server.object_to_string(ref)));
    }

    /**
     * A server ORB without {@code irmi.sla}, its isolation started from {@code slaFile} on the manual
     * clock with no threads of its own (this test ticks it and polls the file), its servant an echo
     * whose {@code sleepMillis} advances the clock instead of sleeping; and a plain client.
     */
    private Echo serveDriven(Path slaFile, OptionalInt metricsPort) throws Exception {
        server = irmi(null);
        client = irmi(null);
        driven = OrbIsolation.startDriven(IrmiORB.of(server).orElseThrow(), slaFile, clock, metricsPort);
        POA root = POAHelper.narrow(server.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        org.omg.CORBA.Object ref = root.servant_to_reference(new org.irmi.orb.EchoServant() {
            @Override
            public int sleepMillis(int millis) {
                clock.advanceMillis(millis);
                return millis;
            }
        });
        return EchoHelper.narrow(client.string_to_object(server.object_to_string(ref)));
    }

    /** Advances the clock one tick period at a time and runs each tick, {@code ticks} times. */
    private void tick(int ticks) {
        for (int i = 0; i < ticks; i++) {
            clock.advanceMillis(IsolationTicker.TICK_MILLIS);
            driven.tick();
        }
    }

    private Path sla(String yaml) throws IOException {
        Path f = dir.resolve("sla.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    @Test
    void shouldAttachEachNewLoadReportToTheNextReplyWhenSlaIsSet() throws Exception {
        Echo echo = serveDriven(sla(CROSSTALK_SLA), OptionalInt.empty());
        List<LoadReport> reports = new CopyOnWriteArrayList<>();
        IrmiORB.of(client).orElseThrow().hooks().addReplyContextListener(new ReplyContextListener() {
            @Override
            public int contextId() {
                return LoadReportCodec.SERVICE_CONTEXT_ID;
            }

            @Override
            public void onReplyContext(ClientCall call, byte[] data) {
                reports.add(LoadReportCodec.decode(data));
            }
        });
        echo.echoString("a"); // the connection's first reply carries the report in force
        assertThat(reports).hasSize(1);
        echo.echoString("b");
        assertThat(reports).as("replies within 100 ms of the last report carry none").hasSize(1);
        clock.advanceMillis(100);
        echo.echoString("c"); // a new report every 100 ms
        echo.echoString("d");
        assertThat(reports).hasSize(2);
        clock.advanceMillis(150);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> echo.fail("e")).isInstanceOf(Refused.class);
        assertThat(reports).as("exception replies carry a new report too").hasSize(3);
    }

    @Test
    void shouldSetReadBudgetsFromCrosstalkWeightsWhenSlaHasCrosstalk() throws Exception {
        Echo echo = serve(sla(CROSSTALK_SLA).toString());
        int defaultBudget = org.irmi.orb.internal.TransportConfig.DEFAULT_READ_BUDGET_BYTES;
        long deadline = System.nanoTime() + 5_000_000_000L;
        List<ConnectionView> views = List.of();
        while (System.nanoTime() < deadline) {
            echo.echoBytes(new byte[4096]);
            views = IrmiORB.of(server).orElseThrow().transport().orElseThrow().connections();
            if (!views.isEmpty() && views.get(0).readBudgetBytes() != defaultBudget) {
                break;
            }
        }
        assertThat(views).singleElement().satisfies(v -> assertThat(v.readBudgetBytes()).isNotEqualTo(defaultBudget));
        assertThat(OrbIsolation.of(IrmiORB.of(server).orElseThrow())).as("started by the irmi.sla property").isPresent();
    }

    @Test
    void shouldWakeTheTickerOnStreamActivityOnlyWhenTheSlaHasACrosstalkPoint() throws Exception {
        Path file = sla("""
                service: x
                isolationPoints:
                  poison:
                    attribution: true
                """);
        Echo echo = serveDriven(file, OptionalInt.empty());
        echo.echoBytes(new byte[16]);
        tick(1);
        assertThat(driven.wakesTickerOnStreamActivity()).as("no crosstalk point: nothing to recompute").isFalse();

        Files.writeString(file, CROSSTALK_SLA);
        driven.pollSla();
        tick(1);
        assertThat(driven.wakesTickerOnStreamActivity()).as("a crosstalk point: budgets follow at once").isTrue();
    }

    @Test
    void shouldStopTheIsolationPointsWhenTheOrbShutsDown() throws Exception {
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.irmi.orb.IrmiORB");
        p.setProperty("OAIAddr", "127.0.0.1");
        p.setProperty(OrbIsolation.SLA_PROPERTY, sla(CROSSTALK_SLA).toString());
        p.setProperty(OrbIsolation.METRICS_PORT_PROPERTY, "0");
        server = ORB.init(new String[0], p);
        IrmiORB irmi = IrmiORB.of(server).orElseThrow();
        String url = OrbIsolation.of(irmi).orElseThrow().metricsUrl().orElseThrow();
        new java.net.URL(url).openStream().close(); // served while the ORB runs

        server.shutdown(true);

        assertThat(OrbIsolation.of(irmi)).isEmpty();
        assertThatThrownBy(() -> new java.net.URL(url).openStream().close()).isInstanceOf(java.io.IOException.class);
        server.destroy(); // finds nothing left to stop
        server = null;
    }

    @Test
    void shouldWeightConnectionsByTheStreamTagTheirClientsSend() throws Exception {
        Echo plain = serve(sla("""
                service: assembly
                isolationPoints:
                  crosstalk:
                    baseReadBudget: 8KiB
                    receiveBuffer: {min: 16KiB, max: 1MiB}
                    defaultWeight: 1
                    idleAfter: 2s
                    weights:
                      - tag: bulk
                        weight: 4
                """).toString());
        plain.echoString("connect first"); // so the untagged connection has the lower id
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.irmi.orb.IrmiORB");
        p.setProperty(org.irmi.orb.StreamTag.PROPERTY, "bulk");
        ORB bulkClient = ORB.init(new String[0], p);
        try {
            Echo bulk = EchoHelper.narrow(bulkClient.string_to_object(client.object_to_string(plain)));
            org.irmi.orb.IrmiTransport transport = IrmiORB.of(server).orElseThrow().transport().orElseThrow();
            long deadline = System.nanoTime() + 10_000_000_000L;
            int bulkBudget = 0;
            int plainBudget = 0;
            while (System.nanoTime() < deadline) {
                bulk.echoBytes(new byte[2048]);
                plain.echoBytes(new byte[2048]);
                List<ConnectionView> views = transport.connections();
                if (views.size() == 2) {
                    // the bulk client's connection is the one opened second
                    ConnectionView first = views.get(0).connectionId() < views.get(1).connectionId() ? views.get(0) : views.get(1);
                    ConnectionView second = first == views.get(0) ? views.get(1) : views.get(0);
                    plainBudget = first.readBudgetBytes();
                    bulkBudget = second.readBudgetBytes();
                    if (bulkBudget == 13_107 && plainBudget == 3_277) {
                        break;
                    }
                }
            }
            // two active streams, weights 4 and 1: 8 KiB * 2 * 4/5 and 8 KiB * 2 * 1/5
            assertThat(bulkBudget).isEqualTo(13_107);
            assertThat(plainBudget).isEqualTo(3_277);
        } finally {
            bulkClient.shutdown(true);
            bulkClient.destroy();
        }
    }

    @Test
    void shouldServeIsolationResourceLatencyAndTransportMetricsWhenAMetricsPortIsSet() throws Exception {
        Echo echo = serveDriven(sla("""
                service: metered
                objectives:
                  - operation: "echo*"
                    p99Latency: 1s
                isolationPoints:
                  poison: {neverFilter: ["*"]}
                """), OptionalInt.of(0));
        String url = driven.metricsUrl().orElseThrow();
        assertThat(url).startsWith("http://127.0.0.1:");
        echo.echoString("metered");
        tick(20); // the objectives are evaluated once a second
        String body = new String(new java.net.URL(url).openStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(body).contains("irmi_isolation_decisions", "point=\"poison_message\"", "irmi_resources_heap_used",
                "irmi_transport_connections_open", "irmi_latency_p99", "irmi_cost_allocation_mean_bytes{operation=\"echoString\"}");
        assertThat(body).containsPattern("irmi_latency_count\\S*\\{[^}]*operation=\"echoString\"[^}]*\\} [1-9]");
        driven.close();
        driven = null;
        assertThatThrownBy(() -> new java.net.URL(url).openStream().close()).isInstanceOf(java.io.IOException.class);
    }

    @Test
    void shouldServeJvmAndProcessMetricsWhenAMetricsPortIsSet() throws Exception {
        serveDriven(sla("service: jvm\n"), OptionalInt.of(0));

        String body = scrape(driven.metricsUrl().orElseThrow());

        assertThat(body).containsPattern("(?m)^jvm_memory_used_bytes\\{[^}]*area=\"heap\"[^}]*\\} [0-9]")
                .containsPattern("(?m)^process_cpu_usage [0-9]")
                .containsPattern("(?m)^jvm_threads_live_threads [1-9]")
                .containsPattern("(?m)^process_uptime_seconds [0-9]")
                .containsPattern("(?m)^jvm_classes_loaded_classes [1-9]")
                .contains("jvm_gc_memory_allocated_bytes_total");
    }

    @Test
    void shouldServeAnAggregatableLatencyHistogramBesideThePercentileGaugesWhenAMetricsPortIsSet() throws Exception {
        Echo echo = serveDriven(sla("""
                service: histogram
                objectives:
                  - operation: "echo*"
                    p99Latency: 1s
                """), OptionalInt.of(0));
        echo.echoString("one");
        echo.echoString("two");
        tick(2);

        String body = scrape(driven.metricsUrl().orElseThrow());

        java.util.List<String> buckets = body.lines()
                .filter(l -> l.startsWith("irmi_latency_seconds_bucket{") && l.contains("operation=\"echoString\""))
                .toList();
        assertThat(buckets).as("bounded buckets").hasSizeBetween(10, 80)
                .allMatch(l -> l.matches(".*\\ble=\"[^\"]+\".*"));
        assertThat(buckets).anyMatch(l -> l.contains("le=\"+Inf\"") && l.matches(".* 2(\\.0)?"));
        assertThat(body).containsPattern("(?m)^irmi_latency_seconds_count\\{operation=\"echoString\"\\} 2")
                .as("the gauges stay").contains("irmi_latency_p99_seconds{operation=\"echoString\"}")
                .as("no histogram for the total: sum by (le) counts each request once")
                .doesNotContainPattern("irmi_latency_seconds_bucket\\{[^}]*operation=\"\\(all\\)\"");
    }

    private static String scrape(String url) throws java.io.IOException {
        try (java.io.InputStream in = new java.net.URL(url).openStream()) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void shouldRefuseToStartWithFileLineAndColumnWhenSlaIsInvalid() throws Exception {
        Path bad = sla("service: x\nisolationPoints:\n  crosstalk:\n    treshold: 3\n");
        assertThatThrownBy(() -> irmi(bad.toString())).isInstanceOf(INITIALIZE.class)
                .hasMessageContaining("sla.yaml:4");
    }

    @Test
    void shouldReportViolatedObjectiveWhenP99ExceedsIt() throws Exception {
        Echo echo = serveDriven(sla("""
                service: slow
                objectives:
                  - operation: "sleep*"
                    p99Latency: 5ms
                  - operation: "echoString"
                    p99Latency: 1s
                monitors:
                  latency: {length: 2s, buckets: 2}
                  perRequestCost: false
                """), OptionalInt.empty());
        OrbIsolation iso = driven;
        assertThat(IrmiORB.of(server).orElseThrow().hooks().measureCpuAndAllocation()).isFalse();
        for (int i = 0; i < 10; i++) {
            echo.sleepMillis(30); // 30 ms on the clock, measured by the server's hooks
            echo.echoString("fast"); // no time
        }
        tick(20); // the objectives are evaluated once a second
        assertThat(iso.objectiveViolated("sleep*")).isTrue();
        assertThat(iso.objectiveViolated("echoString")).isFalse();
    }

    @Test
    void shouldSwapRuntimeWhenSlaFileChangesAndKeepItWhenChangeIsInvalid() throws Exception {
        Path file = sla(CROSSTALK_SLA);
        Echo echo = serveDriven(file, OptionalInt.empty());
        OrbIsolation iso = driven;
        org.irmi.isolation.IsolationRuntime first = iso.runtime();
        Files.writeString(file, CROSSTALK_SLA.replace("weight: 3", "weight: 2"));
        iso.pollSla();
        org.irmi.isolation.IsolationRuntime second = iso.runtime();
        assertThat(second).isNotSameAs(first);
        Files.writeString(file, "service: x\nisolationPoints:\n  crosstalk:\n    treshold: 3\n");
        iso.pollSla();
        assertThat(echo.echoString("still served")).isEqualTo("still served");
        assertThat(iso.runtime()).isSameAs(second);
        assertThat(iso.slaRejection()).hasValueSatisfying(m -> assertThat(m).contains("sla.yaml:4"));
    }

    @Test
    void shouldKeepTheRegisteredQueueGaugeWhenTheSlaIsReloaded() throws Exception {
        String yaml = """
                service: primary
                monitors:
                  causalPairs:
                    - {incoming: placeOrder, target: "Secondary*", outgoing: forward, fanout: 1}
                isolationPoints:
                  slowClient:
                    queueGauge: orders
                    maxQueueLength: 500
                """;
        Path file = sla(yaml);
        serveDriven(file, OptionalInt.empty());
        OrbIsolation iso = driven;
        java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
        iso.registerQueueGauge("orders", () -> {
            reads.incrementAndGet();
            return 7;
        });
        org.irmi.isolation.IsolationRuntime first = iso.runtime();
        Files.writeString(file, yaml.replace("maxQueueLength: 500", "maxQueueLength: 400"));
        iso.pollSla();
        assertThat(iso.runtime()).isNotSameAs(first);
        long before = reads.get();
        tick(10); // ten ticks of the new runtime
        assertThat(reads.get()).isGreaterThan(before);
    }

    private static final String DEGRADE_SLA = """
            service: primary
            isolationPoints:
              slowClient:
                reactToPeerOverload: true
                action: {module: degrade, reducer: thumbnail}
            """;

    /** The slow-client point's decision for a call to a host that advertised overload just now. */
    private static org.irmi.isolation.Decision decideForOverloadedPeer(org.irmi.isolation.IsolationRuntime rt) {
        org.irmi.isolation.SlowClientPoint point = rt.slowClient().orElseThrow();
        org.irmi.isolation.OutgoingCall call = new org.irmi.isolation.OutgoingCall("10.0.0.9", 4000, "sink",
                "deliver", false, new Object[] {"large"}, -1);
        long now = rt.nanoClock().getAsLong();
        point.onReply(call, 0, new org.irmi.isolation.RemoteLoad(0, 0, 0, 0, true, now));
        point.tick(now);
        return point.beforeMarshalling(call);
    }

    private static Object[] reduce(org.irmi.isolation.Decision d) {
        assertThat(d).isInstanceOf(org.irmi.isolation.Decision.Degrade.class);
        return ((org.irmi.isolation.Decision.Degrade) d).reducer().reduce("deliver", new Object[] {"large"});
    }

    @Test
    void shouldReduceWithTheReducerRegisteredAfterStartWhenTheSlaDegrades() throws Exception {
        serveDriven(sla(DEGRADE_SLA), OptionalInt.empty());
        OrbIsolation iso = driven;
        iso.registerReducer("thumbnail", (op, args) -> new Object[] {"small"});
        assertThat(reduce(decideForOverloadedPeer(iso.runtime()))).containsExactly("small");
    }

    @Test
    void shouldLeaveArgumentsUnchangedWhenTheSlasReducerIsNotRegisteredYet() throws Exception {
        serveDriven(sla(DEGRADE_SLA), OptionalInt.empty());
        OrbIsolation iso = driven;
        iso.registerReducer("another", (op, args) -> new Object[] {"small"});
        assertThat(reduce(decideForOverloadedPeer(iso.runtime()))).containsExactly("large");
    }

    @Test
    void shouldKeepTheRegisteredReducerWhenTheSlaIsReloaded() throws Exception {
        Path file = sla(DEGRADE_SLA);
        serveDriven(file, OptionalInt.empty());
        OrbIsolation iso = driven;
        iso.registerReducer("thumbnail", (op, args) -> new Object[] {"small"});
        org.irmi.isolation.IsolationRuntime first = iso.runtime();
        Files.writeString(file, DEGRADE_SLA.replace("service: primary", "service: primary-2"));
        iso.pollSla();
        assertThat(iso.runtime()).isNotSameAs(first);
        assertThat(reduce(decideForOverloadedPeer(iso.runtime()))).containsExactly("small");
    }

    @Test
    void shouldStartWithoutIsolationWhenNoSlaIsSet() throws Exception {
        serve(null);
        assertThat(OrbIsolation.of(IrmiORB.of(server).orElseThrow())).isEmpty();
    }
}
