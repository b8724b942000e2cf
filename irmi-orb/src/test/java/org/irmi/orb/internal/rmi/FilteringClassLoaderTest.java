package org.irmi.orb.internal.rmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The context class loader while values are read: a class the filter does not allow is refused and
 * counted; a log message bundle that the JDK looks for as a class is not loaded either, but is not
 * a refusal (GlassFish's loggers are created while a value is read).
 */
class FilteringClassLoaderTest {

    private final ValueFilter filter = new ValueFilter(null, null, Set.of(), () -> Long.MAX_VALUE);
    private final FilteringClassLoader loader = new FilteringClassLoader(getClass().getClassLoader(), filter);

    @Test
    void shouldRefuseAndCountAClassTheFilterDoesNotAllow() {
        long before = ValueFilters.refusedCount(ValueRefusal.CLASS);

        assertThatThrownBy(() -> loader.loadClass("javax.enterprise.resource.corba.io"))
                .isInstanceOf(ClassNotFoundException.class).hasMessageContaining("refused");

        assertThat(ValueFilters.refusedCount(ValueRefusal.CLASS) - before).isEqualTo(1);
    }

    @Test
    void shouldNotCountAResourceBundleLookupAsARefusalWhenTheJdkLooksForABundleClass() {
        long before = ValueFilters.refusedCount(ValueRefusal.CLASS);

        assertThatThrownBy(() -> ResourceBundle.getBundle("javax.enterprise.resource.corba.io", Locale.ROOT, loader))
                .isInstanceOf(MissingResourceException.class);

        assertThat(ValueFilters.refusedCount(ValueRefusal.CLASS) - before).isZero();
    }
}
