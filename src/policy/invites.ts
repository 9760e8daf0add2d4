/**
 * Invitation rules that need no database (spec 4.9 and section 5 rule 5): who may invite to which
 * role, and whether an address may join the realm at all.
 */
import { ApiError, mustBeOwner } from "../errors.js";
import { isValidEmail } from "../lib/email.js";
import type { RealmRow, UserRow } from "../store/types.js";
import { ROLE, isOwner, isRealmAdmin } from "./roles.js";

/**
 * A caller invites only to roles equal to or stricter than their own: owners to any role,
 * administrators to any but owner, everyone else to member or guest (Zulip's
 * check_role_based_permissions). Managing someone else's invitation uses the same rule with
 * `requireAdmin`.
 */
export function checkInviteRole(caller: UserRow, role: number, opts: { requireAdmin?: boolean } = {}): void {
  if (role === ROLE.OWNER && !isOwner(caller)) throw mustBeOwner();
  if ((opts.requireAdmin || role < ROLE.MEMBER) && !isRealmAdmin(caller)) throw new ApiError("Must be an organization administrator");
}

export interface AllowedDomain {
  domain: string;
  allow_subdomains: boolean;
}

/**
 * Why an address may not join the realm (Zulip's validate_email_is_valid), or null. A realm with
 * emails_restricted_to_domains accepts only its allowed domains (`domains`, the realm_domains
 * rows; actions/realm/realm-domains.ts) and no `+` addresses.
 */
export function inviteEmailError(realm: Pick<RealmRow, "emails_restricted_to_domains">, domains: readonly AllowedDomain[], email: string): string | null {
  if (!isValidEmail(email)) return "Invalid address.";
  if (!realm.emails_restricted_to_domains) return null;
  const at = email.lastIndexOf("@");
  if (email.slice(0, at).includes("+")) return "Email addresses containing + are not allowed.";
  const domain = email.slice(at + 1).toLowerCase();
  const allowed = domains.some((d) => domain === d.domain || (d.allow_subdomains && domain.endsWith(`.${d.domain}`)));
  return allowed ? null : "Outside your domain.";
}
