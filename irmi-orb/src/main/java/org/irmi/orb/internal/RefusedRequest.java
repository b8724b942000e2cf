package org.irmi.orb.internal;

import java.nio.ByteBuffer;

/**
 * A Request whose declared size is more than the inbound memory budget could ever hold (see
 * {@link InboundBudget#largestMessageBytes()}), refused at its header instead of being read into
 * memory. Its first {@value #PREFIX_BYTES} bytes are kept, enough for the request header (request
 * id, response flag, object key, operation); the rest of its body is read and dropped as it
 * arrives. Once all of it is in, the caller gets a {@code NO_MEMORY} reply (a reply before the
 * client has finished writing made stock JacORB clients drop the connection), and the connection
 * stays usable for its next request.
 *
 * <p>Why not close the connection, as for other over-budget holders: stock JacORB answers a request
 * too large for its heap with {@code NO_MEMORY} and goes on serving the connection (JacORB's
 * bug619 test), and a client told why can do something about it. Nothing of the body is held, so
 * a client that declares a huge body and then stalls costs 4 KiB until the stall clock closes it.
 *
 * <p>SELECTOR THREAD ONLY.
 */
final class RefusedRequest {

    /** The bytes kept from the start of the message (header included) to read the request header. */
    static final int PREFIX_BYTES = 4096;

    private final byte[] prefix;
    private int prefixFill;
    private long toDrop;

    /** @param header the message's 12-byte GIOP header; {@code totalBytes} is the size it declares, header included */
    RefusedRequest(byte[] header, long totalBytes) {
        prefix = new byte[(int) Math.min(totalBytes, PREFIX_BYTES)];
        System.arraycopy(header, 0, prefix, 0, Giop.HEADER_BYTES);
        prefixFill = Giop.HEADER_BYTES;
        toDrop = totalBytes - prefix.length;
    }

    /** Takes what it still needs from {@code in}: first the rest of the prefix, then bytes to drop. @return bytes taken */
    int read(ByteBuffer in) {
        int taken = 0;
        if (prefixFill < prefix.length) {
            int n = Math.min(prefix.length - prefixFill, in.remaining());
            in.get(prefix, prefixFill, n);
            prefixFill += n;
            taken += n;
        }
        if (prefixFill == prefix.length && toDrop > 0) {
            int n = (int) Math.min(toDrop, in.remaining());
            in.position(in.position() + n);
            toDrop -= n;
            taken += n;
        }
        return taken;
    }

    /** @return the message's first bytes (a truncated message: the header says the full size) */
    byte[] prefix() {
        return prefix;
    }

    /** @return true when the whole declared message has been read */
    boolean done() {
        return prefixFill == prefix.length && toDrop == 0;
    }

    /** @return the bytes held for this request: the prefix only */
    int heldBytes() {
        return prefix.length;
    }

    /**
     * The request id and response flag from the prefix: the whole request header when it fits, else
     * (GIOP 1.2, whose body starts with them) the leading fields alone.
     *
     * @throws RequestParser.Malformed when neither can be read
     */
    RequestParser.Parsed header() {
        try {
            return RequestParser.parse(prefix);
        } catch (RequestParser.Malformed e) {
            if (Giop.minor(prefix) != 2 || prefix.length < Giop.HEADER_BYTES + 5) {
                throw e;
            }
            int requestId = RequestParser.leadingRequestId(prefix);
            boolean response = (prefix[Giop.HEADER_BYTES + 4] & 0x03) != 0;
            return new RequestParser.Parsed(requestId, response, new byte[0], "", java.util.Map.of(), prefix.length);
        }
    }
}
