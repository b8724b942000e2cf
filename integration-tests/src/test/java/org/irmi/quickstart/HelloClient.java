package org.irmi.quickstart;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import javax.rmi.PortableRemoteObject;
import org.omg.CORBA.ORB;

/** The quick start's client (docs/quick-start.md): reads hello.ior and calls greet. */
public class HelloClient {

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.setProperty("org.omg.CORBA.ORBClass", "org.irmi.orb.IrmiORB");
        ORB orb = ORB.init(args, props);
        Object ref = orb.string_to_object(Files.readString(Path.of("hello.ior")));
        Hello hello = (Hello) PortableRemoteObject.narrow(ref, Hello.class);
        System.out.println(hello.greet("world"));
        orb.shutdown(true);
        orb.destroy();
    }
}
