/**
 * Which link targets we emit, and in what form. Zulip allows a fixed list of URL schemes (the web
 * platform's safelisted ones plus http, https, ftp and file), so `javascript:`, `data:`,
 * `vbscript:` and any unknown scheme never become links. A target without a scheme is taken as a
 * web address (`example.com` -> `http://example.com`) or, with an `@`, as a mail address; paths
 * starting with `/` and fragments (`#narrow/…`) stay relative.
 */

const SAFE_SCHEMES = new Set([
  "http", "https", "ftp", "file",
  "bitcoin", "geo", "im", "irc", "ircs", "magnet", "mailto", "matrix", "mms", "news", "nntp",
  "openpgp4fpr", "sip", "sms", "smsto", "ssh", "tel", "urn", "webcal", "wtai", "xmpp",
]);

/**
 * The href to emit for a link target, or null when it must not be a link. Control characters
 * are refused outright: browsers drop tabs and newlines inside URLs, so "java\tscript:" would
 * otherwise slip past the scheme check.
 */
export function sanitizeUrl(raw: string): string | null {
  const url = raw.trim().replace(/ /g, "%20");
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (url === "" || /[\u0000-\u001f\u007f]/.test(url)) return null;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (scheme) return SAFE_SCHEMES.has(scheme[1].toLowerCase()) ? url : null;
  if (url.startsWith("/") || url.startsWith("#")) return url;
  const pathEnd = url.search(/[/?#]/);
  if (url.slice(0, pathEnd < 0 ? undefined : pathEnd).includes("@")) return "mailto:" + url;
  return "http://" + url;
}

/**
 * Zulip turns links into its own realm's narrows and uploads into relative links
 * ("#narrow/…", "user_uploads/…"), so they open in the app rather than a new tab.
 */
export function relativizeRealmLink(href: string, realmUrl: string): string {
  const prefix = realmUrl + "/";
  if (href.startsWith(prefix + "#") || href.startsWith(prefix + "user_uploads/")) {
    return href.slice(prefix.length);
  }
  return href;
}

/** "2/ab/cdef/file.txt" for a link to this realm's /user_uploads/2/ab/cdef/file.txt, else null. */
export function uploadPathId(href: string, realmUrl: string): string | null {
  let path: string;
  if (href.startsWith("/user_uploads/")) path = href.slice("/user_uploads/".length);
  else if (href.startsWith("user_uploads/")) path = href.slice("user_uploads/".length);
  else if (href.startsWith(realmUrl + "/user_uploads/")) path = href.slice(realmUrl.length + "/user_uploads/".length);
  else return null;
  path = path.replace(/[?#].*$/, "");
  try {
    path = decodeURIComponent(path);
  } catch {
    // Keep the raw path when its percent-escapes are malformed.
  }
  return path === "" ? null : path;
}
