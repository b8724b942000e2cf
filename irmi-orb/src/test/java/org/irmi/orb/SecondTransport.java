package org.irmi.orb;

import org.jacorb.config.ConfigurationException;
import org.jacorb.orb.etf.ProfileBase;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPFactories;
import org.jacorb.orb.iiop.IIOPListener;
import org.jacorb.orb.iiop.IIOPProfile;
import org.omg.IOP.TaggedComponentSeqHolder;
import org.omg.IOP.TaggedProfileHolder;

/**
 * A second transport for the tests, as a server may list beside IIOP (JacORB's own test suite has
 * WIOP): IIOP on a port of its own under another profile tag, so an IOR carries two profiles and
 * a client that has only this transport reaches the server only through this one. Select it with
 * {@code jacorb.transport.factories=...,org.irmi.orb.SecondTransport$Factories}.
 */
public final class SecondTransport {

    /** The profile tag of this transport ("IRMT"; no registered tag). */
    static final int TAG = 0x49524D54;

    private SecondTransport() {
    }

    /** The transport's factories: JacORB's IIOP ones under {@link #TAG}. */
    public static final class Factories extends IIOPFactories {

        @Override
        public int profile_tag() {
            return TAG;
        }

        @Override
        public int match_tag(String address) {
            return -1; // no corbaloc addresses of its own: "iiop:" stays IIOP's
        }

        @Override
        public ProfileBase demarshal_profile(TaggedProfileHolder taggedProfile, TaggedComponentSeqHolder components) {
            Profile result = new Profile();
            configureResult(result);
            result.demarshal(taggedProfile, components); // refuses another tag (BAD_PARAM)
            return result;
        }

        @Override
        protected org.omg.ETF.Listener create_listener_internal() {
            return new Listener();
        }
    }

    /** An IIOP profile under {@link #TAG}. */
    public static final class Profile extends IIOPProfile {

        public Profile() {
            super();
        }

        Profile(IIOPAddress address, byte[] objectKey, int minorVersion) {
            super(address, objectKey, minorVersion);
        }

        @Override
        public int tag() {
            return TAG;
        }
    }

    /** JacORB's IIOP listener (a thread per connection) whose endpoint is a {@link Profile}. */
    static final class Listener extends IIOPListener {

        @Override
        public org.omg.ETF.Profile endpoint() {
            IIOPProfile iiop = (IIOPProfile) super.endpoint();
            Profile p = new Profile((IIOPAddress) iiop.getAddress(), iiop.get_object_key(), iiop.version().minor);
            try {
                p.configure(configuration);
            } catch (ConfigurationException e) {
                throw new org.omg.CORBA.INTERNAL(e.toString());
            }
            return p;
        }
    }
}
