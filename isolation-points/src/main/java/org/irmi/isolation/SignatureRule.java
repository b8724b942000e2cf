package org.irmi.isolation;

import java.util.List;
import java.util.Objects;
import org.irmi.sla.ArgumentSignature;
import org.irmi.sla.OperationPattern;

/**
 * The compiled form of an SLA {@link ArgumentSignature} ({@link #of}), as the poison point matches
 * it on the reader thread: the pattern decoded once. Makes the poison point tell requests apart by
 * some of their argument bytes (for poison that depends on parameters, the paper's stated
 * limitation). It looks at {@code length} bytes of the
 * request body (the CDR-encoded arguments) from {@code offset}:
 * <ul>
 *   <li>with a {@code pattern}, a request of a matching operation whose byte range contains the
 *       pattern gets the signature {@code operation#name};</li>
 *   <li>without one, the bytes themselves join the signature, {@code operation#name=hex}, so each
 *       distinct argument value is a separate suspect.</li>
 * </ul>
 *
 * @param name      the rule's name (letters, digits, {@code _ - .})
 * @param operation glob over operations
 * @param offset    first byte of the body looked at
 * @param length    bytes looked at, at least the pattern's length
 * @param pattern   the bytes to find, or null
 */
public record SignatureRule(String name, OperationPattern operation, int offset, int length, byte[] pattern) {
    /** Null-checks and copies; the bounds were checked by the SLA's {@link ArgumentSignature}. */
    public SignatureRule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(operation, "operation");
        pattern = pattern == null ? null : pattern.clone();
    }

    /** @return the compiled rules of the SLA's signatures, in order. */
    public static List<SignatureRule> of(List<ArgumentSignature> signatures) {
        return signatures.stream()
                .map(s -> new SignatureRule(s.name(), s.operation(), s.offset(), s.length(), s.patternBytes().orElse(null)))
                .toList();
    }

    /** @return how many body bytes the reader must hand over for this rule. */
    public int bytesNeeded() {
        return offset + length;
    }

    /**
     * @param body the first bytes of the request body (may be shorter than {@link #bytesNeeded()})
     * @return the signature suffix ({@code #name} or {@code #name=hex}), or null when the rule does
     *         not apply to these bytes
     */
    public String suffix(byte[] body) {
        if (body == null || body.length <= offset) {
            return null;
        }
        int end = Math.min(body.length, offset + length);
        if (pattern != null) {
            outer:
            for (int i = offset; i + pattern.length <= end; i++) {
                for (int j = 0; j < pattern.length; j++) {
                    if (body[i + j] != pattern[j]) {
                        continue outer;
                    }
                }
                return "#" + name;
            }
            return null;
        }
        if (end - offset < length) {
            return null;
        }
        StringBuilder sb = new StringBuilder(name.length() + 2 + 2 * length).append('#')
                .append(name).append('=');
        for (int i = offset; i < end; i++) {
            sb.append(Character.forDigit((body[i] >> 4) & 0xF, 16))
                    .append(Character.forDigit(body[i] & 0xF, 16));
        }
        return sb.toString();
    }
}
