// web_fetch reads the web, not this machine or its network: loopback, private, link-local and
// cloud-metadata addresses are refused after DNS resolution (a public name may point inside),
// and again on every redirect hop. The config can allow them (webFetch.allowPrivate).
import net from "node:net";
import { lazily } from "../../context/lazily.js";

// Made at the first fetch: a run that fetches nothing never builds it (~1 ms of every start).
const blocked = lazily(() => {
  const list = new net.BlockList();
  for (const [addr, prefix] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10], // carrier-grade NAT
    ["127.0.0.0", 8],
    ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["224.0.0.0", 4], // multicast and reserved
    ["240.0.0.0", 4],
  ] as const)
    list.addSubnet(addr, prefix, "ipv4");
  for (const [addr, prefix] of [
    ["::", 128],
    ["::1", 128],
    ["fc00::", 7], // unique local
    ["fec0::", 10], // site-local (deprecated by RFC 3879, still routed inside some networks)
    ["fe80::", 10], // link-local
    ["ff00::", 8], // multicast
    ["fd00:ec2::", 32], // AWS metadata over IPv6
  ] as const)
    list.addSubnet(addr, prefix, "ipv6");
  return list;
});

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail becomes the last two). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, "");
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * The IPv4 address an IPv6 address carries, where the form says it reaches one: IPv4-mapped
 * (::ffff:a.b.c.d) and SIIT (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96,
 * RFC 6052), 6to4 (2002::/16, RFC 3056) and Teredo's client (2001::/32, RFC 4380, bits inverted).
 */
function embeddedIpv4(g: number[]): string | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!);
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  if (g[0] === 0x2001 && g[1] === 0) return v4(~g[6]! & 0xffff, ~g[7]! & 0xffff);
  return undefined;
}

/** Whether an IP address is loopback, private, link-local, metadata or otherwise not the public web. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked().check(address, "ipv4");
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 is checked by the IPv4 rules: 64:ff9b::7f00:1 is 127.0.0.1.
  const groups = ipv6Groups(address);
  const inner = embeddedIpv4(groups);
  if (inner !== undefined && blocked().check(inner, "ipv4")) return true;
  // NAT64's local-use prefix (RFC 8215) places the IPv4 address where the operator chose: refused whole.
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return true;
  return blocked().check(address, "ipv6");
}

/** An error sentence when `url`'s host resolves to an address web_fetch must not reach. */
export async function checkPublicAddress(url: URL): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    // node:dns/promises loads here, with the first web_fetch, not at every start.
    const lookup = async () => (await import("node:dns/promises")).lookup(host, { all: true, verbatim: true });
    addresses = net.isIP(host) ? [host] : (await lookup()).map((a) => a.address);
  } catch {
    return `Error: could not resolve the host ${url.host} (DNS lookup failed).`;
  }
  const inside = addresses.find(isPrivateAddress);
  if (inside === undefined) return undefined;
  return (
    `Error: ${url.host} resolves to ${inside}, a loopback, private or link-local address: web_fetch reads the ` +
    `public web only (the user can allow this with "webFetch": {"allowPrivate": true} in the config).`
  );
}
