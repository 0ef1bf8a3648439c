import { describe, expect, it } from "vitest";
import { clientAddressKey } from "./client-address";

describe("clientAddressKey", () => {
  it("keeps an IPv4 address as it is, also written as IPv6", () => {
    expect(clientAddressKey("203.0.113.8")).toBe("203.0.113.8");
    expect(clientAddressKey("::ffff:203.0.113.8")).toBe("203.0.113.8");
    expect(clientAddressKey("::FFFF:cb00:7108")).toBe("203.0.113.8");
  });

  it("counts every address of one IPv6 /64 as one client (found by an attack probe: each address had its own count)", () => {
    const key = "2001:db8:1:1::/64";
    for (const address of ["2001:db8:1:1::1", "2001:db8:1:1::2", "2001:0db8:0001:0001:ffff:1:2:3", "2001:DB8:1:1:a:b:c:d", "2001:db8:1:1::1%eth0", "2001:db8:1:1::192.0.2.1"]) {
      expect(clientAddressKey(address)).toBe(key);
    }
    expect(clientAddressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientAddressKey("::1")).toBe("0:0:0:0::/64");
    expect(clientAddressKey("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("leaves what is no address alone", () => {
    expect(clientAddressKey("unbekannt")).toBe("unbekannt");
    expect(clientAddressKey("1:2:3")).toBe("1:2:3");
    expect(clientAddressKey("1::2::3")).toBe("1::2::3");
    expect(clientAddressKey("1:2:3:4:5:6:7:8:9")).toBe("1:2:3:4:5:6:7:8:9");
    expect(clientAddressKey("zz::1")).toBe("zz::1");
  });
});
