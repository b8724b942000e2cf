package org.irmi.orb.rmi;

/** The static greeter's servant. */
public class StaticGreeterImpl implements StaticGreeter {

    @Override
    public String hello(String name) {
        return "hello, " + name;
    }
}
