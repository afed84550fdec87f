// web_fetch reads the web, not this machine or its network: loopback, private, link-local and
// cloud-metadata addresses are refused after DNS resolution (a public name may point inside),
// and again on every redirect hop. The config can allow them (webFetch.allowPrivate).
import net from "node:net";

const blocked = new net.BlockList();
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
  blocked.addSubnet(addr, prefix, "ipv4");
for (const [addr, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
  ["fd00:ec2::", 32], // AWS metadata over IPv6
] as const)
  blocked.addSubnet(addr, prefix, "ipv6");

/** Whether an IP address is loopback, private, link-local, metadata or otherwise not the public web. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is checked as IPv4.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  return blocked.check(address, "ipv6");
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
