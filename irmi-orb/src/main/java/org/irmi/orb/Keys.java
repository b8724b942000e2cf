package org.irmi.orb;

/** Renders object keys as short stable strings for logs, stream names and call views. */
public final class Keys {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Keys() {
    }

    /** The key as ASCII when every byte is printable, else as lower-case hex. */
    public static String toText(byte[] key) {
        if (key == null) {
            return "";
        }
        boolean printable = true;
        for (byte b : key) {
            if (b < 0x20 || b > 0x7e) {
                printable = false;
                break;
            }
        }
        if (printable) {
            return new String(key, java.nio.charset.StandardCharsets.US_ASCII);
        }
        StringBuilder sb = new StringBuilder(key.length * 2);
        for (byte b : key) {
            sb.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
        }
        return sb.toString();
    }
}
