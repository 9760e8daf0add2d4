/** The public URL of a realm: `scheme://[SUB.]EXTERNAL_HOST`. */

/** Loopback hosts are served over plain HTTP in development; anything else is assumed HTTPS. */
export function externalScheme(externalHost: string): "http" | "https" {
  return /^(localhost|127\.|\[::1\])/.test(externalHost) ? "http" : "https";
}

export function realmUrl(externalHost: string, subdomain: string): string {
  const host = subdomain === "" ? externalHost : `${subdomain}.${externalHost}`;
  return `${externalScheme(externalHost)}://${host}`;
}
