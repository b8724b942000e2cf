package org.irmi.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class CidrTest {

  @Test
  void shouldContainAddressesInsideTheBlockWhenPrefixIsGiven() throws Exception {
    Cidr c = Cidr.parse("10.1.0.0/16");

    assertThat(c.contains(InetAddress.getByName("10.1.255.255"))).isTrue();
    assertThat(c.contains(InetAddress.getByName("10.2.0.0"))).isFalse();
  }

  @Test
  void shouldMeanOneHostWhenNoPrefixIsGiven() throws Exception {
    Cidr c = Cidr.parse("127.0.0.1");

    assertThat(c.prefixLength()).isEqualTo(32);
    assertThat(c.contains(InetAddress.getByName("127.0.0.1"))).isTrue();
    assertThat(c.contains(InetAddress.getByName("127.0.0.2"))).isFalse();
  }

  @Test
  void shouldMatchEverythingWhenPrefixIsZero() throws Exception {
    assertThat(Cidr.parse("0.0.0.0/0").contains(InetAddress.getByName("192.0.2.1"))).isTrue();
  }

  @Test
  void shouldKeepFamiliesApartWhenBlockIsIpv6() throws Exception {
    Cidr c = Cidr.parse("::1/128");

    assertThat(c.contains(InetAddress.getByName("::1"))).isTrue();
    assertThat(c.contains(InetAddress.getByName("127.0.0.1"))).isFalse();
  }

  @Test
  void shouldRefuseHostNameWhenAddressIsNotLiteral() {
    assertThatThrownBy(() -> Cidr.parse("localhost/8")).hasMessageContaining("not a literal IPv4 or IPv6 address");
  }
}
