package org.irmi.it;

import java.util.ArrayList;
import java.util.List;
import org.irmi.adaptation.ReplicaResolver;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.Binding;
import org.omg.CosNaming.BindingIteratorHolder;
import org.omg.CosNaming.BindingListHolder;
import org.omg.CosNaming.BindingType;
import org.omg.CosNaming.NameComponent;
import org.omg.CosNaming.NamingContext;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextHelper;

/**
 * Finds replicas in the standard CORBA Naming Service (omniNames here): the SLA's name is either
 * one object or a naming context whose object bindings are the replicas.
 */
final class CosNamingReplicaResolver implements ReplicaResolver {
    private final ORB orb;
    private final String nameService;

    /** @param nameService {@code corbaloc:iiop:host:port/NameService} */
    CosNamingReplicaResolver(ORB orb, String nameService) {
        this.orb = orb;
        this.nameService = nameService;
    }

    @Override
    public List<Replica> resolve(String name) {
        try {
            NamingContextExt root = NamingContextExtHelper.narrow(orb.string_to_object(nameService));
            org.omg.CORBA.Object found = root.resolve_str(name);
            if (!found._is_a(NamingContextHelper.id())) {
                return List.of(new Replica(name, found));
            }
            NamingContext ctx = NamingContextHelper.narrow(found);
            BindingListHolder list = new BindingListHolder();
            BindingIteratorHolder rest = new BindingIteratorHolder();
            ctx.list(1000, list, rest);
            List<Replica> out = new ArrayList<>();
            for (Binding b : list.value) {
                if (b.binding_type == BindingType.nobject) {
                    NameComponent[] n = b.binding_name;
                    out.add(new Replica(root.to_string(n), ctx.resolve(n)));
                }
            }
            if (rest.value != null) {
                rest.value.destroy();
            }
            out.sort(java.util.Comparator.comparing(Replica::name));
            return out;
        } catch (org.omg.CosNaming.NamingContextPackage.NotFound e) {
            return List.of();
        } catch (org.omg.CORBA.UserException e) {
            throw new IllegalStateException("naming service lookup of `" + name + "` failed: " + e, e);
        }
    }
}
