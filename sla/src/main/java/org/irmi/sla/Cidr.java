package org.irmi.sla;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A block of IP addresses in CIDR notation ({@code 10.0.0.0/8}, {@code 127.0.0.1}, {@code ::1/128}).
 * A bare address means one host ({@code /32} or {@code /128}). Only literal addresses are accepted:
 * parsing never does a DNS lookup.
 *
 * <p>Immutable and thread-safe.
 */
public final class Cidr {

  private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
  private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

  private final byte[] network;
  private final int prefixLength;
  private final String text;

  private Cidr(byte[] network, int prefixLength, String text) {
    this.network = network;
    this.prefixLength = prefixLength;
    this.text = text;
  }

  /**
   * Parses CIDR notation.
   *
   * @throws IllegalArgumentException if the address is not a literal IPv4/IPv6 address, the prefix is
   *     out of range, or host bits are set below the prefix (the message suggests the network address)
   */
  public static Cidr parse(String text) {
    Objects.requireNonNull(text, "text");
    String s = text.trim();
    int slash = s.indexOf('/');
    String addressText = slash < 0 ? s : s.substring(0, slash);
    byte[] address = parseAddress(addressText, s);
    int max = address.length * 8;
    int prefix = max;
    if (slash >= 0) {
      String p = s.substring(slash + 1);
      if (!p.matches("\\d{1,3}")) {
        throw new IllegalArgumentException("bad CIDR '" + s + "': prefix length '" + p + "' is not a number");
      }
      prefix = Integer.parseInt(p);
      if (prefix > max) {
        throw new IllegalArgumentException(
            "bad CIDR '" + s + "': prefix length must be at most " + max + ", was " + prefix);
      }
    }
    byte[] masked = mask(address, prefix);
    if (!Arrays.equals(masked, address)) {
      String suggestion = format(masked) + "/" + prefix;
      throw new IllegalArgumentException(
          "bad CIDR '" + s + "': host bits are set below /" + prefix + " (did you mean '" + suggestion + "'?)");
    }
    return new Cidr(address, prefix, s);
  }

  private static byte[] parseAddress(String a, String whole) {
    var m = IPV4.matcher(a);
    if (m.matches()) {
      byte[] b = new byte[4];
      for (int i = 0; i < 4; i++) {
        int octet = Integer.parseInt(m.group(i + 1));
        if (octet > 255) {
          throw new IllegalArgumentException("bad CIDR '" + whole + "': octet " + octet + " is above 255");
        }
        b[i] = (byte) octet;
      }
      return b;
    }
    if (a.contains(":") && IPV6_CHARS.matcher(a).matches()) {
      try {
        // A literal containing ':' is never looked up in DNS.
        return InetAddress.getByName(a).getAddress();
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("bad CIDR '" + whole + "': '" + a + "' is not an IPv6 address");
      }
    }
    throw new IllegalArgumentException(
        "bad CIDR '" + whole + "': '" + a + "' is not a literal IPv4 or IPv6 address (write e.g. 10.0.0.0/8)");
  }

  private static byte[] mask(byte[] address, int prefix) {
    byte[] out = address.clone();
    for (int i = 0; i < out.length; i++) {
      int bitsHere = Math.max(0, Math.min(8, prefix - i * 8));
      int m = bitsHere == 0 ? 0 : (0xFF << (8 - bitsHere)) & 0xFF;
      out[i] = (byte) (out[i] & m);
    }
    return out;
  }

  private static String format(byte[] a) {
    try {
      return InetAddress.getByAddress(a).getHostAddress();
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether {@code address} lies in this block (an IPv4 address never matches an IPv6 block). */
  public boolean contains(InetAddress address) {
    byte[] a = address.getAddress();
    return a.length == network.length && Arrays.equals(mask(a, prefixLength), network);
  }

  /** The prefix length in bits. */
  public int prefixLength() {
    return prefixLength;
  }

  /** The notation as written. */
  public String text() {
    return text;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cidr c && c.prefixLength == prefixLength && Arrays.equals(c.network, network);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(network) * 31 + prefixLength;
  }

  @Override
  public String toString() {
    return text;
  }
}
