package org.irmi.orb.internal.rmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;

import org.junit.jupiter.api.Test;

class ValuePatternsTest {

    @Test
    void shouldMatchLikeTheJdkFilterSyntax() {
        ValuePatterns p = ValuePatterns.parse(" !com.evil.*; com.acme.**; java.util.HashMap; org.x.Pre*;"
                + " java.base/java.lang.Integer; maxdepth=7; maxarray=100 ");
        assertThat(p.check("com.evil.Gadget", null)).isEqualTo(ValuePatterns.Verdict.REJECTED);
        assertThat(p.check("com.evil.sub.Gadget", null)).isEqualTo(ValuePatterns.Verdict.UNDECIDED);
        assertThat(p.check("com.acme.a.b.Order", null)).isEqualTo(ValuePatterns.Verdict.ALLOWED);
        assertThat(p.check("java.util.HashMap", null)).isEqualTo(ValuePatterns.Verdict.ALLOWED);
        assertThat(p.check("java.util.HashMapX", null)).isEqualTo(ValuePatterns.Verdict.UNDECIDED);
        assertThat(p.check("org.x.Prefixed", null)).isEqualTo(ValuePatterns.Verdict.ALLOWED);
        assertThat(p.check("java.lang.Integer", "java.base")).isEqualTo(ValuePatterns.Verdict.ALLOWED);
        assertThat(p.check("java.lang.Integer", "other.module")).isEqualTo(ValuePatterns.Verdict.UNDECIDED);
        assertThat(p.maxDepth()).isEqualTo(7);
        assertThat(p.maxArray()).isEqualTo(100);
        assertThat(p.maxRefs()).isEqualTo(-1);
    }

    @Test
    void shouldNameTheBadPartWhenTheFilterIsMalformed() {
        assertThatThrownBy(() -> ValuePatterns.parse("maxdepth=abc")).hasMessageContaining("maxdepth=abc");
        assertThatThrownBy(() -> ValuePatterns.parse("maxwhat=1")).hasMessageContaining("maxwhat=1");
        assertThatThrownBy(() -> ValuePatterns.parse("!")).hasMessageContaining("'!'");
    }

    @Test
    void shouldAllowDefaultsAndExportedTypesAndRefuseTheRest() {
        ValueFilter f = new ValueFilter(null, null, Set.of("com.acme.Order"), () -> Long.MAX_VALUE);
        assertThat(f.allows("java.lang.String", null)).isTrue();
        assertThat(f.allows("java.util.HashMap", null)).isTrue();
        assertThat(f.allows("com.acme.Order", null)).isTrue();
        assertThat(f.allows("[[Lcom.acme.Order;", null)).isTrue();
        assertThat(f.allows("[I", null)).isTrue();
        assertThat(f.allows("java.net.URL", null)).isFalse();
        assertThat(f.allows("org.apache.commons.collections.functors.InvokerTransformer", null)).isFalse();
        assertThat(f.allows("[Ljava.net.URL;", null)).isFalse();
    }

    @Test
    void shouldApplyTheDefaultLimitsWhenNeitherStringSetsThem() {
        ValueFilter f = new ValueFilter("java.util.*", null, Set.of(), () -> Long.MAX_VALUE);
        assertThat(f.maxDepth()).isEqualTo(200);
        assertThat(f.maxRefs()).isEqualTo(1_000_000);
        assertThat(f.maxBytes()).isEqualTo(64L << 20);
        assertThat(f.maxArray()).isEqualTo(64L << 20);
        assertThat(f.maxHashNesting()).isEqualTo(4);
        assertThat(f.cpuBudgetNanos(4096)).as("a 4 KB request").isLessThan(100_000_000L);
    }

    @Test
    void shouldLetJdkSerialFilterDecideFirstAndTakeTheStricterLimits() {
        ValueFilter f = new ValueFilter("!java.util.HashMap;maxdepth=5", "com.acme.**;maxdepth=9;maxarray=10", Set.of(), () -> Long.MAX_VALUE);
        assertThat(f.allows("java.util.HashMap", null)).isFalse();
        assertThat(f.allows("com.acme.x.Y", null)).isTrue();
        assertThat(f.allows("java.lang.String", null)).as("replaced defaults").isFalse();
        assertThat(f.maxDepth()).isEqualTo(5);
        assertThat(f.maxArray()).isEqualTo(10);
    }

    @Test
    void shouldReachFieldTypesOfExportedValueClasses() {
        Set<String> names = ReachableTypes.of(Impl.class);
        assertThat(names).contains(Order.class.getName(), Line.class.getName(), Problem.class.getName())
                .doesNotContain("java.lang.String", Unrelated.class.getName());
    }

    interface Shop extends java.rmi.Remote {
        Order place(java.util.List<Line> lines) throws java.rmi.RemoteException, Problem;
    }

    static final class Impl implements Shop {
        @Override
        public Order place(java.util.List<Line> lines) {
            return null;
        }
    }

    static final class Order implements java.io.Serializable {
        Line[] lines;
        String note;
        transient Unrelated cache;
    }

    static final class Line implements java.io.Serializable {
        long qty;
    }

    static final class Problem extends Exception {
    }

    static final class Unrelated implements java.io.Serializable {
    }

    @Test
    void shouldKeepTheDefaultsInTheDocsExample() throws java.io.IOException {
        String example = java.nio.file.Files.readAllLines(java.nio.file.Path.of("../docs/orb.md")).stream()
                .filter(l -> l.startsWith("irmi.rmi.value_filter=")).findFirst().orElseThrow()
                .substring("irmi.rmi.value_filter=".length());
        assertThat(java.util.List.of(example.split(";"))).as("the docs' example filter")
                .containsAll(java.util.List.of(ValueFilter.DEFAULT_PATTERNS.split(";")));
        ValueFilter f = new ValueFilter(null, example, Set.of(), () -> Long.MAX_VALUE);
        assertThat(f.allows("java.util.HashMap", null)).isTrue();
        assertThat(f.allows("java.lang.Integer", null)).as("a HashMap{a=1}'s value").isTrue();
        assertThat(f.allows("com.acme.values.Order", null)).isTrue();
        assertThat(f.allows("java.net.URL", null)).isFalse();
    }
}
