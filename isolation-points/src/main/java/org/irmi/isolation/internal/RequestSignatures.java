package org.irmi.isolation.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.irmi.isolation.IncomingRequest;
import org.irmi.sla.ArgumentSignature;

/**
 * The signature the poison point tells requests apart by: the request's operation, followed by the
 * suffix of each SLA {@link ArgumentSignature} of that operation that applies to the request's
 * argument bytes ({@code order#sell}, {@code raw#head=0aff}). Without argument signatures, the
 * signature is the operation.
 *
 * <p>THREADING: any thread; the reader thread calls it for every request. The signatures of each
 * operation are looked up once and kept (for up to {@value #MAX_OPERATIONS} operations).
 */
final class RequestSignatures {

    /** Operations whose matching argument signatures are kept. */
    private static final int MAX_OPERATIONS = 10_000;

    private final List<ArgumentSignature> signatures;
    private final ConcurrentHashMap<String, List<ArgumentSignature>> signaturesByOperation =
            new ConcurrentHashMap<>();

    /** @param signatures the SLA's argument signatures, in order */
    RequestSignatures(List<ArgumentSignature> signatures) {
        this.signatures = List.copyOf(signatures);
    }

    /** @return the request's signature: its operation, plus argument bytes when a signature says so. */
    String of(IncomingRequest request) {
        byte[] args = request.argumentBytes();
        if (args == null || signatures.isEmpty()) {
            return request.operation();
        }
        List<ArgumentSignature> matching = signaturesByOperation.get(request.operation());
        if (matching == null) {
            List<ArgumentSignature> l = new ArrayList<>();
            for (ArgumentSignature s : signatures) {
                if (s.operation().matches(request.operation())) {
                    l.add(s);
                }
            }
            matching = List.copyOf(l);
            if (signaturesByOperation.size() < MAX_OPERATIONS) {
                signaturesByOperation.put(request.operation(), matching);
            }
        }
        String sig = request.operation();
        for (ArgumentSignature s : matching) {
            String suffix = s.suffix(args);
            if (suffix != null) {
                sig = sig + suffix;
            }
        }
        return sig;
    }

    /** @return how many argument bytes the reader must hand over for requests of {@code operation} (0: none) */
    int argumentBytesWanted(String operation) {
        int n = 0;
        for (ArgumentSignature s : signatures) {
            if (s.operation().matches(operation)) {
                n = Math.max(n, s.bytesNeeded());
            }
        }
        return n;
    }

    /** @return the operation a signature belongs to (the signature up to its first {@code #}) */
    static String operationOf(String signature) {
        int hash = signature.indexOf('#');
        return hash < 0 ? signature : signature.substring(0, hash);
    }
}
