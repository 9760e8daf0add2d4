/** Email address syntax, as loose as Django's validator is in practice: local@domain.tld. */
const LOCAL_PART = /^[^\s@,<>()[\]\\;:"]+$/;
const DOMAIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
/** Django's EmailValidator domain_allowlist: domains accepted without a dot. */
const DOMAIN_ALLOWLIST = new Set(["localhost"]);

export const MAX_EMAIL_LENGTH = 254;

export function isValidEmail(email: string): boolean {
  if (email.length > MAX_EMAIL_LENGTH) return false;
  const at = email.indexOf("@");
  if (at < 0) return false;
  const domain = email.slice(at + 1);
  return LOCAL_PART.test(email.slice(0, at)) && (DOMAIN.test(domain) || DOMAIN_ALLOWLIST.has(domain.toLowerCase()));
}
