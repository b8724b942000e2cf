package org.irmi.orb.isolation;

import java.util.ArrayList;
import java.util.List;

import org.irmi.adaptation.ReplicaResolver;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.Binding;
import org.omg.CosNaming.BindingIteratorHolder;
import org.omg.CosNaming.BindingListHolder;
import org.omg.CosNaming.BindingType;
import org.omg.CosNaming.NamingContext;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextHelper;

/**
 * Finds replicas in the standard CORBA Naming Service (JacORB's or omniNames, reached through
 * {@code ORBInitRef.NameService}): a name bound to an object is one replica; a name bound to a
 * context yields every object bound in it. Never called on the reader thread.
 */
final class NamingReplicaResolver implements ReplicaResolver {

    private static final int MAX_REPLICAS = 256;

    private final ORB orb;

    NamingReplicaResolver(ORB orb) {
        this.orb = orb;
    }

    @Override
    public List<Replica> resolve(String name) {
        try {
            NamingContextExt root = NamingContextExtHelper.narrow(orb.resolve_initial_references("NameService"));
            org.omg.CORBA.Object found = root.resolve_str(name);
            List<Replica> out = new ArrayList<>();
            if (found._is_a(NamingContextHelper.id())) {
                NamingContext ctx = NamingContextHelper.narrow(found);
                BindingListHolder list = new BindingListHolder();
                ctx.list(MAX_REPLICAS, list, new BindingIteratorHolder());
                for (Binding b : list.value) {
                    if (b.binding_type == BindingType.nobject) {
                        String id = b.binding_name[b.binding_name.length - 1].id;
                        out.add(new Replica(name + "/" + id, ctx.resolve(b.binding_name)));
                    }
                }
            } else {
                out.add(new Replica(name, found));
            }
            return out;
        } catch (org.omg.CORBA.UserException | org.omg.CORBA.SystemException e) {
            return List.of();
        }
    }
}
