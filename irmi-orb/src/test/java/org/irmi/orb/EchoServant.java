package org.irmi.orb;

import java.util.concurrent.atomic.AtomicInteger;

import irmitest.EchoPOA;
import irmitest.Refused;

/** The IDL echo servant the tests call (shared by every test package of irmi-orb). */
public class EchoServant extends EchoPOA {

    /** {@code sleepMillis} calls asleep now, for a test to wait until the servant is held. */
    private final AtomicInteger sleeping = new AtomicInteger();

    /** @return {@code sleepMillis} calls asleep now */
    public int sleeping() {
        return sleeping.get();
    }

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
        sleeping.incrementAndGet();
        try {
            Thread.sleep(millis); // a slow servant: the work the caller waits for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            sleeping.decrementAndGet();
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
