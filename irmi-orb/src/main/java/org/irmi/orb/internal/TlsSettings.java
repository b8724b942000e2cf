package org.irmi.orb.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;

import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;

/**
 * The selector transport's TLS, configured with JacORB's own keys (those of its
 * {@code sun_jsse.SSLServerSocketFactory}), so that a {@code jacorb.properties} written for
 * JacORB's SSL works unchanged:
 * <ul>
 *   <li>{@code jacorb.security.support_ssl}: on to listen for TLS (on {@code OASSLPort}, or a free port);</li>
 *   <li>{@code jacorb.security.ssl.server.supported_options} / {@code required_options} (hex, as
 *       JacORB reads them): {@code 0x40} EstablishTrustInClient asks for (supported) or requires a
 *       client certificate; any option of {@code 0x7e} required makes the plain port refuse
 *       connections, as in JacORB;</li>
 *   <li>{@code jacorb.security.keystore}, {@code keystore_password}, {@code keystore_type}
 *       (JKS), {@code jacorb.security.jsse.server.key_manager_algorithm} (SunX509):
 *       the server's key and certificate;</li>
 *   <li>{@code jacorb.security.jsse.trustees_from_ks}, or {@code jacorb.security.truststore},
 *       {@code truststore_password}, {@code truststore_type},
 *       {@code jacorb.security.jsse.server.trust_manager_algorithm}: whom to trust as client;</li>
 *   <li>{@code jacorb.security.ssl.server.protocols}, {@code cipher_suites}: what to enable.</li>
 * </ul>
 * Not supported here (refused with a message): PKCS#11 and Windows key stores, CRLs, a custom
 * trust manager object.
 *
 * <p>Immutable; {@link #newEngine()} from the selector thread.
 */
final class TlsSettings {

    /** The security options SSL always gives (Integrity, DetectReplay, DetectMisordering), as JacORB adds them. */
    private static final int MIN_OPTIONS = 0x02 | 0x04 | 0x08;
    private static final int CLIENT_TRUST = 0x40;
    /** Any of these required makes SSL required (JacORB's MAX_SSL_OPTIONS). */
    private static final int SECURE_OPTIONS = 0x7e;

    private final SSLContext context;
    private final int supportedOptions;
    private final int requiredOptions;
    private final String[] protocols;
    private final String[] cipherSuites;

    private TlsSettings(SSLContext context, int supportedOptions, int requiredOptions, String[] protocols,
                        String[] cipherSuites) {
        this.context = context;
        this.supportedOptions = supportedOptions;
        this.requiredOptions = requiredOptions;
        this.protocols = protocols;
        this.cipherSuites = cipherSuites;
    }

    /** The TLS settings of {@code c}, or null when {@code jacorb.security.support_ssl} is off. */
    static TlsSettings from(Configuration c) throws ConfigurationException {
        if (!c.getAttributeAsBoolean("jacorb.security.support_ssl", false)) {
            return null;
        }
        int supported = c.getAttributeAsInteger("jacorb.security.ssl.server.supported_options", 0x20, 16) | MIN_OPTIONS;
        int required = c.getAttributeAsInteger("jacorb.security.ssl.server.required_options", 0, 16);
        for (String unsupported : new String[] {"jacorb.security.crl_file", "jacorb.security.ssl.server.trust_manager"}) {
            if (c.getAttribute(unsupported, null) != null) {
                throw new ConfigurationException(unsupported + " is not supported by I-RMI's selector transport");
            }
        }
        if (c.getAttributeAsBoolean("jacorb.security.support_crl", false)) {
            throw new ConfigurationException("jacorb.security.support_crl is not supported by I-RMI's selector transport");
        }
        String keystore = c.getAttribute("jacorb.security.keystore", null);
        String password = c.getAttribute("jacorb.security.keystore_password", null);
        if (keystore == null || password == null) {
            throw new ConfigurationException("jacorb.security.support_ssl=on needs jacorb.security.keystore and"
                    + " jacorb.security.keystore_password: the server's key and certificate");
        }
        try {
            KeyStore keys = load(keystore, password, c.getAttribute("jacorb.security.keystore_type", "JKS"),
                    "jacorb.security.keystore");
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(
                    c.getAttribute("jacorb.security.jsse.server.key_manager_algorithm", "SunX509"));
            kmf.init(keys, password.toCharArray());
            TrustManagerFactory tmf = null;
            if (((supported | required) & CLIENT_TRUST) != 0) {
                KeyStore trust = null;
                if (c.getAttributeAsBoolean("jacorb.security.jsse.trustees_from_ks", false)) {
                    trust = keys;
                } else if (c.getAttribute("jacorb.security.truststore", null) != null) {
                    trust = load(c.getAttribute("jacorb.security.truststore"),
                            c.getAttribute("jacorb.security.truststore_password", ""),
                            c.getAttribute("jacorb.security.truststore_type", "JKS"), "jacorb.security.truststore");
                }
                tmf = TrustManagerFactory.getInstance(
                        c.getAttribute("jacorb.security.jsse.server.trust_manager_algorithm", "SunX509"));
                tmf.init(trust); // null: the JDK's default trust store
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
            return new TlsSettings(context, supported, required, strings(c, "jacorb.security.ssl.server.protocols"),
                    strings(c, "jacorb.security.ssl.server.cipher_suites"));
        } catch (GeneralSecurityException | IOException e) {
            throw new ConfigurationException("I-RMI cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private static KeyStore load(String location, String password, String type, String key)
            throws GeneralSecurityException, IOException {
        Path file = Path.of(location);
        if (!Files.isReadable(file)) {
            throw new IOException(key + "=" + location + ": no readable file there");
        }
        KeyStore ks = KeyStore.getInstance(type);
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, password.toCharArray());
        }
        return ks;
    }

    private static String[] strings(Configuration c, String key) {
        String v = c.getAttribute(key, "");
        return v.isBlank() ? null : v.trim().split("\\s*,\\s*");
    }

    /** A server-mode engine for one accepted connection. */
    SSLEngine newEngine() {
        SSLEngine e = context.createSSLEngine();
        e.setUseClientMode(false);
        if (protocols != null) {
            e.setEnabledProtocols(protocols);
        }
        if (cipherSuites != null) {
            e.setEnabledCipherSuites(cipherSuites);
        }
        if ((requiredOptions & CLIENT_TRUST) != 0) {
            e.setNeedClientAuth(true);
        } else if ((supportedOptions & CLIENT_TRUST) != 0) {
            e.setWantClientAuth(true);
        }
        return e;
    }

    /** The options the IOR's SSL component says the target supports. */
    short supportedOptions() {
        return (short) supportedOptions;
    }

    /** The options the IOR's SSL component says the target requires. */
    short requiredOptions() {
        return (short) requiredOptions;
    }

    /** True when the target requires a secure connection: its plain port refuses connections. */
    boolean required() {
        return (requiredOptions & SECURE_OPTIONS) != 0;
    }
}
