// Who a client is, for limits (failed sign-ins, sign-ups, open connections). An IPv4 address is one
// client. An IPv6 home or phone connection is given a whole /64 network, 2^64 addresses to pick
// from, so counting per IPv6 address would give every guess a fresh count: its first four groups
// (the /64) are the client instead.

/** The address's eight IPv6 groups as numbers, or null when it is not an IPv6 address. */
function ipv6Groups(address: string): number[] | null {
  const plain = address.split("%")[0].toLowerCase(); // without a zone (fe80::1%eth0)
  if (!plain.includes(":")) return null;
  let text = plain;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text); // an IPv4 tail (64:ff9b::192.0.2.1)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

/** The key limits count a client by: an IPv4 address as it is, an IPv6 address by its /64. */
export function clientAddressKey(address: string): string {
  const groups = ipv6Groups(address);
  if (!groups) return address;
  // An IPv4 address written as IPv6 (::ffff:192.0.2.1, as a dual-stack server sees IPv4 clients).
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(":")}::/64`;
}
