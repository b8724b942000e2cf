package org.irmi.bench.echo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OrbVariantsTest {

    @Test
    void shouldAddPropertiesOnTopOfBaseWhenSpecNamesBaseAndProperties() {
        OrbVariant v = OrbVariants.parse("irmi-mon=irmi,irmi.monitoring=true, jacorb.poa.thread_pool_max=20",
                OrbVariants.builtIns());

        assertThat(v.name()).isEqualTo("irmi-mon");
        assertThat(v.orbClass()).isEqualTo("org.irmi.orb.IrmiORB");
        assertThat(v.orbProperties()).containsEntry("irmi.monitoring", "true")
                .containsEntry("org.omg.CORBA.ORBSingletonClass", "org.irmi.orb.IrmiORBSingleton");
    }

    @Test
    void shouldPassPropertiesAsOmniOrbOptionsWhenVariantIsOmniOrbServer() {
        OrbVariant v = OrbVariants.parse("omniorb-tpc=omniorb,threadPerConnectionPolicy=1", OrbVariants.known());

        assertThat(v.platform()).isEqualTo(OrbVariant.Platform.OMNIORB_CPP);
        assertThat(v.omniOrbArgs()).containsExactly("-ORBmaxServerThreadPoolSize", "20",
                "-ORBthreadPerConnectionPolicy", "1");
    }

    @Test
    void shouldServeWithThreadPoolAsLargeAsPoaPoolWhenVariantIsOmniorb() {
        assertThat(OrbVariants.omniorb().omniOrbArgs()).containsExactly("-ORBmaxServerThreadPoolSize",
                Integer.toString(OrbVariants.POA_THREADS), "-ORBthreadPerConnectionPolicy", "0");
    }

    @Test
    void shouldRequireOrbClassWhenServerRunsInJvm() {
        assertThatThrownBy(() -> new OrbVariant("x", "no class", java.util.Map.of("a", "b")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must set " + OrbVariant.ORB_CLASS);
    }

    @Test
    void shouldNameKnownVariantsWhenBaseIsUnknown() {
        assertThatThrownBy(() -> OrbVariants.parse("x=visibroker,a=b", OrbVariants.builtIns()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown base 'visibroker'").hasMessageContaining("jacorb, irmi");
    }

    @Test
    void shouldRejectPropertyWithoutValueWhenSpecIsMalformed() {
        assertThatThrownBy(() -> OrbVariants.parse("x=irmi,monitoring", OrbVariants.builtIns()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'monitoring' is not key=value");
    }

    @Test
    void shouldSetPoaPoolMinEqualToMaxWhenVariantIsBuiltIn() {
        for (OrbVariant v : OrbVariants.builtIns().values()) {
            assertThat(v.orbProperties().get("jacorb.poa.thread_pool_min"))
                    .isEqualTo(v.orbProperties().get("jacorb.poa.thread_pool_max"));
            assertThat(Integer.parseInt(v.orbProperties().get("jacorb.poa.queue_max"))).isGreaterThanOrEqualTo(1000);
        }
    }

    @Test
    void shouldDifferOnlyInOrbClassesWhenComparingBuiltIns() {
        var jacorb = new java.util.HashMap<>(OrbVariants.jacorb().orbProperties());
        var irmi = new java.util.HashMap<>(OrbVariants.irmi().orbProperties());
        for (String k : new String[] {OrbVariant.ORB_CLASS, OrbVariant.ORB_SINGLETON_CLASS}) {
            jacorb.remove(k);
            irmi.remove(k);
        }
        assertThat(irmi).isEqualTo(jacorb);
    }
}
