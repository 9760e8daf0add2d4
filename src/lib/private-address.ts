/**
 * Addresses a server must not be made to call on a user's behalf (server-side request forgery):
 * loopback, private, link-local, carrier-grade NAT, multicast and unspecified ranges, IPv4 and
 * IPv6 (with IPv4-mapped IPv6). Zulip sends outgoing webhooks through Smokescreen for the same
 * reason; Parley checks the resolved addresses itself (net.BlockList, Node's own matcher).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
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

/** A connection refused because its host name resolved to a private address. */
export class PrivateAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to the private address ${address}`);
    this.name = "PrivateAddressError";
  }
}

/** Whether the URL names a private address literally (no DNS involved: connections skip the lookup). */
export function isPrivateLiteral(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
  return isIP(host) !== 0 && isPrivateAddress(host);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for a connection (net.connect's option, which undici's `connect.lookup` passes on)
 * that refuses private addresses: the address checked is the one connected to, so a host name
 * that answers a public address to a first lookup and a private one to the next (DNS rebinding)
 * cannot slip through between a check and the connection. Any private answer refuses the host.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked) return callback(new PrivateAddressError(hostname, blocked.address), []);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    if (options.all) return callback(null, addresses);
    callback(null, first.address, first.family);
  });
}

/** Whether an error (or one of its causes, as fetch wraps them) is a refused private address. */
export function privateAddressCause(err: unknown): PrivateAddressError | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof PrivateAddressError) return e;
  }
  return null;
}
