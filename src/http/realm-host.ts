/**
 * Which realm a request is for (zulip-facts section h): a Host of `SUB.EXTERNAL_HOST` names the
 * realm with subdomain SUB; `www.` and every other Host mean the root realm (subdomain ""). Ports
 * are ignored on both sides.
 */
const ROOT_SUBDOMAIN_ALIASES = new Set(["www"]);

const withoutPort = (host: string) => host.replace(/:\d+$/, "");

export function subdomainFromHost(hostHeader: string | undefined, externalHost: string): string {
  if (!hostHeader) return "";
  const host = withoutPort(hostHeader.toLowerCase());
  const base = withoutPort(externalHost.toLowerCase());
  if (!host.endsWith(`.${base}`)) return "";
  const sub = host.slice(0, -(base.length + 1));
  return ROOT_SUBDOMAIN_ALIASES.has(sub) ? "" : sub;
}
