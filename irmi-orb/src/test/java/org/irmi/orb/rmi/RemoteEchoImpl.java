package org.irmi.orb.rmi;

/** The RMI servant: a plain class implementing the Remote interface. */
public class RemoteEchoImpl implements RemoteEcho {

    @Override
    public Greeting greet(Greeting g) {
        return new Greeting(g.text + "!", g.count + 1, g.payload);
    }

    @Override
    public String echoText(String s) {
        return s;
    }

    @Override
    public int measure(java.io.Serializable value) {
        return String.valueOf(value).length();
    }

    @Override
    public void refuse(String why) throws RefusedException {
        throw new RefusedException(why);
    }
}
