package org.irmi.quickstart;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import javax.rmi.CORBA.Util;
import javax.rmi.PortableRemoteObject;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.Servant;

/** The quick start's server (docs/quick-start.md): exports one Hello and writes its reference to hello.ior. */
public class HelloServer implements Hello {

    @Override
    public String greet(String name) {
        return "Hello, " + name;
    }

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.setProperty("org.omg.CORBA.ORBClass", "org.irmi.orb.IrmiORB");
        ORB orb = ORB.init(args, props);
        HelloServer hello = new HelloServer();
        PortableRemoteObject.exportObject(hello);
        POA root = (POA) orb.resolve_initial_references("RootPOA");
        root.the_POAManager().activate();
        Servant tie = (Servant) Util.getTie(hello);
        Files.writeString(Path.of("hello.ior"), orb.object_to_string(root.servant_to_reference(tie)));
        System.out.println("ready: hello.ior");
        orb.run();
    }
}
