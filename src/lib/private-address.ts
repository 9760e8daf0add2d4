/**
 * Addresses a server must not be made to call on a user's behalf (server-side request forgery):
 * loopback, private, link-local, carrier-grade NAT, multicast and unspecified ranges, IPv4 and
 * IPv6 (with IPv4-mapped IPv6). Zulip sends outgoing webhooks through Smokescreen for the same
 * reason; Parley checks the resolved addresses itself (net.BlockList, Node's own matcher).
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const BLOCKED = new BlockList();
for (const [net, prefix] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 3]] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) BLOCKED.addSubnet(net, prefix, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? BLOCKED.check(mapped[1] as string, "ipv4") : BLOCKED.check(address, "ipv6");
}

/** Whether any address the URL's host resolves to is private (an unresolvable host counts as not private: the call fails on its own). */
export async function resolvesToPrivateAddress(url: string): Promise<boolean> {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host)) return isPrivateAddress(host);
  try {
    return (await lookup(host, { all: true })).some((a) => isPrivateAddress(a.address));
  } catch {
    return false;
  }
}
