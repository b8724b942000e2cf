package org.irmi.bench.daytrader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.omg.CORBA.MARSHAL;
import org.omg.CORBA.ORB;
import org.omg.CORBA.portable.ObjectImpl;
import org.omg.CORBA.portable.OutputStream;

/** DayTrader end to end on the I-RMI ORB (both tiers); skipped with a message while irmi-orb lacks IrmiORB. */
class IrmiEndToEndTest extends AbstractEndToEndTest {
    @BeforeAll
    void startOnIrmi() throws Exception {
        assertTrue(OrbChoice.IRMI.isAvailable(), "org.irmi.orb.IrmiORB is not on the class path: build irmi-orb first (mvn install)");
        start(OrbChoice.IRMI);
    }

    /**
     * The backend launched the way the benchmark launches it runs I-RMI's value filter: a stock
     * JacORB client that sends, where {@code getOrders}'s {@code String} belongs, a value of a
     * Serializable JDK class that no DayTrader signature reaches gets {@code MARSHAL} (the class
     * refused by name), and the backend still serves the next page.
     */
    @Test
    void shouldRefuseAValueOfAClassNoBackendSignatureReaches() throws Exception {
        if (System.getProperty("javax.rmi.CORBA.UtilClass") == null) {
            System.setProperty("javax.rmi.CORBA.UtilClass", "com.sun.corba.ee.impl.javax.rmi.CORBA.Util"); // the client's value handler
        }
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", OrbChoice.JACORB.orbClass());
        p.setProperty("org.omg.CORBA.ORBSingletonClass", OrbChoice.JACORB.singletonClass());
        p.setProperty("jacorb.connection.client.pending_reply_timeout", "30000");
        ORB orb = ORB.init(new String[0], p);
        try {
            ObjectImpl backend = (ObjectImpl) orb.string_to_object(dt.backendIor());
            OutputStream out = backend._request("getOrders", true);
            ((org.omg.CORBA_2_3.portable.OutputStream) out).write_value(new AtomicLong(42));
            Throwable thrown = catchThrowable(() -> backend._invoke(out));
            // Refused by name before it loaded, and answered as the value filter's refusal (MARSHAL
            // VALUE_REFUSED, completed NO), not as JacORB's "class not found". Stock JacORB loads it, builds
            // it, and fails the call later as an argument type mismatch.
            assertThat(thrown).isInstanceOf(MARSHAL.class)
                    .hasMessageContaining("I-RMI value filter refused java.util.concurrent.atomic.AtomicLong");
            assertThat(((MARSHAL) thrown).completed).isEqualTo(org.omg.CORBA.CompletionStatus.COMPLETED_NO);
        } finally {
            orb.shutdown(false);
        }
        assertThat(click("quote?symbols=s:1").body()).contains("s:1");
    }
}
