package org.irmi.orb;

import irmitest.EchoPOA;
import irmitest.Refused;

/** The IDL echo servant the tests call (shared by every test package of irmi-orb). */
public class EchoServant extends EchoPOA {

    @Override
    public String echoString(String s) {
        return s;
    }

    @Override
    public byte[] echoBytes(byte[] b) {
        return b;
    }

    @Override
    public int sleepMillis(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return millis;
    }

    @Override
    public void fail(String why) throws Refused {
        throw new Refused(why);
    }

    @Override
    public void ping() {
        // oneway
    }

    @Override
    public String served() {
        return "echo";
    }
}
