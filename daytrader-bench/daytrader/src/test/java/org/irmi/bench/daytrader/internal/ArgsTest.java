package org.irmi.bench.daytrader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.irmi.bench.daytrader.OrbChoice;
import org.junit.jupiter.api.Test;

class ArgsTest {
    private static final Set<String> KNOWN = Set.of("orb", "users");

    @Test
    void shouldReadSpaceAndEqualsForms() {
        Args a = Args.parse(new String[] {"--orb", "jacorb", "--users=12"}, KNOWN, Set.of());
        assertThat(a.get("orb", "irmi")).isEqualTo("jacorb");
        assertThat(a.getInt("users", 1, 1)).isEqualTo(12);
    }

    @Test
    void shouldNameAnUnknownOptionAndListTheKnownOnes() {
        assertThatThrownBy(() -> Args.parse(new String[] {"--userz", "3"}, KNOWN, Set.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option --userz")
                .hasMessageContaining("--users");
    }

    @Test
    void shouldRefuseANumberBelowItsBound() {
        Args a = Args.parse(new String[] {"--users", "0"}, KNOWN, Set.of());
        assertThatThrownBy(() -> a.getInt("users", 1, 1)).hasMessageContaining("--users must be >= 1, was 0");
    }

    @Test
    void shouldRefuseAnOptionWithoutItsValue() {
        assertThatThrownBy(() -> Args.parse(new String[] {"--orb"}, KNOWN, Set.of())).hasMessageContaining("--orb needs a value");
    }

    @Test
    void shouldRefuseAnUnknownOrb() {
        assertThatThrownBy(() -> OrbChoice.parse("tao")).hasMessageContaining("--orb must be irmi or jacorb, was 'tao'");
    }
}
