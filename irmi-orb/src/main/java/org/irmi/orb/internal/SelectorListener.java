package org.irmi.orb.internal;

import java.io.IOException;

import org.irmi.orb.IrmiHooks;
import org.irmi.orb.IrmiORB;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.jacorb.orb.BasicAdapter;
import org.jacorb.orb.giop.RequestListener;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPProfile;
import org.jacorb.orb.listener.TCPConnectionListener;
import org.omg.CORBA.INITIALIZE;

/**
 * The ETF listener JacORB creates for each IIOP listen endpoint. Instead of an acceptor thread
 * plus a reader thread per connection, it runs one {@link SelectorLoop} and publishes the IIOP
 * profile that goes into this ORB's IORs.
 */
public final class SelectorListener extends org.jacorb.orb.etf.ListenerBase {

    private SelectorLoop loop;
    private volatile RequestListener requestListener;
    /** JacORB's {@code jacorb.net.tcp_listener}, told of every connection opened and closed. */
    private TCPConnectionListener tcpListener;
    /** The direct path from the dispatch workers to the servants. */
    private DirectDispatch direct;

    @Override
    public void configure(Configuration config) throws ConfigurationException {
        super.configure(config);
        if (listenEndpoint == null) {
            throw new INITIALIZE("listenEndpoint may not be null");
        }
        TlsSettings tls;
        try {
            tls = TlsSettings.from(configuration); // null unless jacorb.security.support_ssl=on
        } catch (ConfigurationException e) {
            INITIALIZE init = new INITIALIZE(e.getMessage());
            init.initCause(e);
            throw init;
        }
        int tlsPort = 0;
        if (tls != null && listenEndpoint.getSSLAddress() instanceof IIOPAddress sslAddress) {
            tlsPort = Math.max(0, sslAddress.getPort()); // OASSLPort
        }
        IIOPAddress address = (IIOPAddress) listenEndpoint.getAddress();
        if (address == null) {
            throw new INITIALIZE("I-RMI needs a plain IIOP listen address (SSL-only endpoints are not supported)");
        }
        address.configure(configuration);
        IrmiORB irmi = OrbRegistry.lookup(orb);
        if (irmi != null && irmi.startFailure().isPresent()) {
            throw irmi.startFailure().get(); // JacORB's ORB class ignored it in the initializer: not here
        }
        IrmiHooks hooks = irmi != null ? irmi.hooks() : new IrmiHooks();
        TransportConfig transportConfig = TransportConfig.from(configuration);
        direct = new DirectDispatch(orb, hooks, configuration,
                transportConfig.dispatchWorkers() - transportConfig.dispatchThreads());
        tcpListener = orb.getTransportManager().getSocketFactoryManager().getTCPListener();
        try {
            loop = new SelectorLoop(transportConfig, hooks, address.getConfiguredHost(), address.getPort(), tls, tlsPort,
                    this::newGiopConnection, this::parseIor, System::nanoTime);
        } catch (IOException e) {
            throw new INITIALIZE("I-RMI cannot listen on " + address + ": " + e);
        }
        IIOPAddress bound = new IIOPAddress(loop.serverChannel().socket());
        bound.configure(configuration);
        if (address.getPort() == 0) {
            address.setPort(bound.getPort());
        }
        if (address.getConfiguredHost() == null) {
            address.setHostInetAddress(bound.getConfiguredHost());
        } else {
            address.setWildcardHost(bound.isWildcard());
        }
        IIOPProfile p = new IIOPProfile(bound, null, orb.getGIOPMinorVersion());
        p.configure(configuration);
        if (bound.isWildcard()) {
            p.addAllWildcardAddresses(configuration);
        }
        if (tls != null) {
            // where JacORB's clients find the TLS port (as JacORB's IIOPListener adds it)
            p.addComponent(org.omg.SSLIOP.TAG_SSL_SEC_TRANS.value, new org.omg.SSLIOP.SSL(tls.supportedOptions(),
                    tls.requiredOptions(), (short) loop.tlsPort()), org.omg.SSLIOP.SSLHelper.class);
        }
        profile = p;
        if (irmi != null) {
            irmi.attachTransport(loop);
        }
    }

    /** SELECTOR THREAD ONLY, at accept, before the connection is read. */
    private IrmiServerGIOPConnection newGiopConnection(InboundConnection c) {
        ChannelTransport transport;
        IrmiServerGIOPConnection g;
        try {
            transport = new ChannelTransport(c, c.channel.socket(), tcpListener);
            transport.configure(configuration);
            g = new IrmiServerGIOPConnection(transport, requestListener, c);
            g.configure(configuration);
        } catch (ConfigurationException | IOException e) {
            throw new INITIALIZE("cannot set up server connection from " + c.peerAddress + ": " + e.getMessage());
        }
        transport.fireOpened();
        return g;
    }

    private final java.util.Map<String, org.omg.IOP.IOR> iors = new java.util.concurrent.ConcurrentHashMap<>();

    /** An {@code IOR:} string as an IOR struct; parsing only (no I/O), cached for repeated forwards. */
    private org.omg.IOP.IOR parseIor(String ior) {
        org.omg.IOP.IOR cached = iors.get(ior);
        if (cached != null) {
            return cached;
        }
        org.omg.CORBA.Object o = orb.string_to_object(ior);
        org.omg.IOP.IOR parsed = ((org.jacorb.orb.Delegate) ((org.omg.CORBA.portable.ObjectImpl) o)._get_delegate())
                .getIOR();
        if (iors.size() < 64) {
            iors.put(ior, parsed);
        }
        return parsed;
    }

    @Override
    public void listen() {
        requestListener = ((BasicAdapter) up).getRequestListener();
        loop.start(requestListener, direct);
    }

    @Override
    public void destroy() {
        if (loop != null) {
            loop.shutdown();
        }
        super.destroy();
    }
}
