package org.irmi.orb.isolation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

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
 * Finds replicas in the standard CORBA Naming Service (JacORB's or omniNames): a name bound to an
 * object is one replica; a name bound to a context yields every object bound in it, ordered by
 * name. A name that is not bound, or a naming service that cannot be reached, yields no replica.
 * Never called on the reader thread.
 */
public final class NamingReplicaResolver implements ReplicaResolver {

    private static final int MAX_REPLICAS = 256;

    private final ORB orb;
    private final Supplier<org.omg.CORBA.Object> nameService;

    private NamingReplicaResolver(ORB orb, Supplier<org.omg.CORBA.Object> nameService) {
        this.orb = orb;
        this.nameService = nameService;
    }

    /** @return a resolver using the ORB's {@code ORBInitRef.NameService} */
    public static NamingReplicaResolver of(ORB orb) {
        return new NamingReplicaResolver(orb, () -> {
            try {
                return orb.resolve_initial_references("NameService");
            } catch (org.omg.CORBA.ORBPackage.InvalidName e) {
                throw new org.omg.CORBA.OBJECT_NOT_EXIST("no NameService initial reference");
            }
        });
    }

    /** @return a resolver using the naming service at {@code url}, e.g. {@code corbaloc:iiop:host:port/NameService} */
    public static NamingReplicaResolver of(ORB orb, String url) {
        return new NamingReplicaResolver(orb, () -> orb.string_to_object(url));
    }

    /** The same lookup at the SLA's {@code namingService} URL. */
    @Override
    public java.util.Optional<ReplicaResolver> at(String namingServiceUrl) {
        return java.util.Optional.of(of(orb, namingServiceUrl));
    }

    @Override
    public List<Replica> resolve(String name) {
        try {
            NamingContextExt root = NamingContextExtHelper.narrow(nameService.get());
            org.omg.CORBA.Object found = root.resolve_str(name);
            if (!found._is_a(NamingContextHelper.id())) {
                return List.of(new Replica(name, found));
            }
            NamingContext ctx = NamingContextHelper.narrow(found);
            BindingListHolder list = new BindingListHolder();
            BindingIteratorHolder rest = new BindingIteratorHolder();
            ctx.list(MAX_REPLICAS, list, rest);
            if (rest.value != null) {
                rest.value.destroy(); // the naming server keeps an iterator for bindings past the first batch
            }
            List<Replica> out = new ArrayList<>();
            for (Binding b : list.value) {
                if (b.binding_type == BindingType.nobject) {
                    String id = b.binding_name[b.binding_name.length - 1].id;
                    out.add(new Replica(name + "/" + id, ctx.resolve(b.binding_name)));
                }
            }
            out.sort(Comparator.comparing(Replica::name));
            return out;
        } catch (org.omg.CORBA.UserException | org.omg.CORBA.SystemException e) {
            return List.of();
        }
    }
}
