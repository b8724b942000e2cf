package org.irmi.orb.internal;

import org.omg.CORBA.Any;
import org.omg.CORBA.Context;
import org.omg.CORBA.ContextList;
import org.omg.CORBA.Environment;
import org.omg.CORBA.ExceptionList;
import org.omg.CORBA.NVList;
import org.omg.CORBA.NamedValue;
import org.omg.CORBA.Policy;
import org.omg.CORBA.PolicyError;
import org.omg.CORBA.Request;
import org.omg.CORBA.StructMember;
import org.omg.CORBA.SystemException;
import org.omg.CORBA.TCKind;
import org.omg.CORBA.TypeCode;
import org.omg.CORBA.UnionMember;
import org.omg.CORBA.ValueMember;
import org.omg.CORBA.WrongTransaction;
import org.omg.CORBA.ORBPackage.InvalidName;
import org.omg.CORBA.portable.OutputStream;
import org.omg.CORBA.portable.ValueFactory;

/**
 * An ORB that forwards every ORB operation, unchanged, to a JacORB ORB ({@link #jacorb()}). It holds
 * no state and makes no decision: {@link org.irmi.orb.IrmiORB} extends it and adds only what I-RMI
 * does differently (start-up, shutdown, destroy). Not for applications.
 *
 * <p>THREADING: as JacORB's ORB.
 */
public abstract class ForwardingORB extends org.omg.CORBA_2_5.ORB {

    /** For subclasses. */
    protected ForwardingORB() {
        super();
    }

    /** The JacORB ORB every operation is forwarded to; null only before the subclass has started it. */
    public abstract org.jacorb.orb.ORB jacorb();

    @Override
    public String id() {
        return jacorb().id();
    }

    @Override
    public org.omg.CORBA.Object string_to_object(String str) {
        return jacorb().string_to_object(str);
    }

    @Override
    public String object_to_string(org.omg.CORBA.Object obj) {
        return jacorb().object_to_string(obj);
    }

    @Override
    public NVList create_list(int count) {
        return jacorb().create_list(count);
    }

    @Override
    public NVList create_operation_list(org.omg.CORBA.Object oper) {
        return jacorb().create_operation_list(oper);
    }

    @Override
    public NamedValue create_named_value(String s, Any any, int flags) {
        return jacorb().create_named_value(s, any, flags);
    }

    @Override
    public ExceptionList create_exception_list() {
        return jacorb().create_exception_list();
    }

    @Override
    public ContextList create_context_list() {
        return jacorb().create_context_list();
    }

    @Override
    public Context get_default_context() {
        return jacorb().get_default_context();
    }

    @Override
    public Environment create_environment() {
        return jacorb().create_environment();
    }

    @Override
    public void send_multiple_requests_oneway(Request[] req) {
        jacorb().send_multiple_requests_oneway(req);
    }

    @Override
    public void send_multiple_requests_deferred(Request[] req) {
        jacorb().send_multiple_requests_deferred(req);
    }

    @Override
    public boolean poll_next_response() {
        return jacorb().poll_next_response();
    }

    @Override
    public Request get_next_response() throws WrongTransaction {
        return jacorb().get_next_response();
    }

    @Override
    public boolean get_service_information(short serviceType, org.omg.CORBA.ServiceInformationHolder info) {
        return jacorb().get_service_information(serviceType, info);
    }

    @Override
    public String[] list_initial_services() {
        return jacorb().list_initial_services();
    }

    @Override
    public void register_initial_reference(String id, org.omg.CORBA.Object obj) throws InvalidName {
        jacorb().register_initial_reference(id, obj);
    }

    @Override
    public org.omg.CORBA.Object resolve_initial_references(String objectName) throws InvalidName {
        return jacorb().resolve_initial_references(objectName);
    }

    @Override
    public TypeCode create_struct_tc(String id, String name, StructMember[] members) {
        return jacorb().create_struct_tc(id, name, members);
    }

    @Override
    public TypeCode create_union_tc(String id, String name, TypeCode discriminator, UnionMember[] members) {
        return jacorb().create_union_tc(id, name, discriminator, members);
    }

    @Override
    public TypeCode create_enum_tc(String id, String name, String[] members) {
        return jacorb().create_enum_tc(id, name, members);
    }

    @Override
    public TypeCode create_alias_tc(String id, String name, TypeCode originalType) {
        return jacorb().create_alias_tc(id, name, originalType);
    }

    @Override
    public TypeCode create_exception_tc(String id, String name, StructMember[] members) {
        return jacorb().create_exception_tc(id, name, members);
    }

    @Override
    public TypeCode create_interface_tc(String id, String name) {
        return jacorb().create_interface_tc(id, name);
    }

    @Override
    public TypeCode create_string_tc(int bound) {
        return jacorb().create_string_tc(bound);
    }

    @Override
    public TypeCode create_wstring_tc(int bound) {
        return jacorb().create_wstring_tc(bound);
    }

    @Override
    public TypeCode create_fixed_tc(short digits, short scale) {
        return jacorb().create_fixed_tc(digits, scale);
    }

    @Override
    public TypeCode create_sequence_tc(int bound, TypeCode elementType) {
        return jacorb().create_sequence_tc(bound, elementType);
    }

    @Override
    @SuppressWarnings("deprecation")
    public TypeCode create_recursive_sequence_tc(int bound, int offset) {
        return jacorb().create_recursive_sequence_tc(bound, offset);
    }

    @Override
    public TypeCode create_array_tc(int length, TypeCode elementType) {
        return jacorb().create_array_tc(length, elementType);
    }

    @Override
    public TypeCode create_value_tc(String id, String name, short typeModifier, TypeCode concreteBase,
                                    ValueMember[] members) {
        return jacorb().create_value_tc(id, name, typeModifier, concreteBase, members);
    }

    @Override
    public TypeCode create_value_box_tc(String id, String name, TypeCode boxedType) {
        return jacorb().create_value_box_tc(id, name, boxedType);
    }

    @Override
    public TypeCode create_native_tc(String id, String name) {
        return jacorb().create_native_tc(id, name);
    }

    @Override
    public TypeCode create_recursive_tc(String id) {
        return jacorb().create_recursive_tc(id);
    }

    @Override
    public TypeCode create_abstract_interface_tc(String id, String name) {
        return jacorb().create_abstract_interface_tc(id, name);
    }

    @Override
    public TypeCode create_local_interface_tc(String id, String name) {
        return jacorb().create_local_interface_tc(id, name);
    }

    @Override
    @SuppressWarnings("deprecation")
    public org.omg.CORBA.Current get_current() {
        return jacorb().get_current();
    }

    @Override
    public void connect(org.omg.CORBA.Object obj) {
        jacorb().connect(obj);
    }

    @Override
    public void disconnect(org.omg.CORBA.Object obj) {
        jacorb().disconnect(obj);
    }

    @Override
    public boolean work_pending() {
        return jacorb().work_pending();
    }

    @Override
    public void perform_work() {
        jacorb().perform_work();
    }

    @Override
    public void run() {
        jacorb().run();
    }

    @Override
    public Policy create_policy(int type, Any val) throws PolicyError {
        return jacorb().create_policy(type, val);
    }

    @Override
    public TypeCode get_primitive_tc(TCKind tcKind) {
        return jacorb().get_primitive_tc(tcKind);
    }

    @Override
    public Any create_any() {
        return jacorb().create_any();
    }

    @Override
    public OutputStream create_output_stream() {
        return jacorb().create_output_stream();
    }

    @Override
    public org.omg.CORBA.Object get_value_def(String repid) {
        return jacorb().get_value_def(repid);
    }

    @Override
    public ValueFactory register_value_factory(String id, ValueFactory factory) {
        return jacorb().register_value_factory(id, factory);
    }

    @Override
    public void unregister_value_factory(String id) {
        jacorb().unregister_value_factory(id);
    }

    @Override
    public ValueFactory lookup_value_factory(String id) {
        return jacorb().lookup_value_factory(id);
    }

    @Override
    public void set_delegate(Object wrapper) {
        jacorb().set_delegate(wrapper);
    }

    @Override
    public String exception_to_string(SystemException exc) {
        return jacorb().exception_to_string(exc);
    }
}
