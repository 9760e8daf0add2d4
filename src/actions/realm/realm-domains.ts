/**
 * A realm's allowed domains (Zulip's get/add/patch/delete-realm-domain, zerver/views/
 * realm_domains.py; owners only since FL 143): when emails_restricted_to_domains is on, new
 * accounts and invitations accept only addresses in these domains (policy/invites.ts). Changes
 * reach everyone as realm_domains add/change/remove events; removing the last domain turns the
 * restriction off, as Zulip's do_remove_realm_domain does.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { transaction, type Tx } from "../../store/db.js";
import { countRealmDomains, deleteRealmDomain, getRealmDomain, insertRealmDomain, listRealmDomains, updateRealmDomain } from "../../store/realm-integrations.js";
import { getRealmById, insertAuditLog, updateRealm } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";

/** Parley's bound on a realm's list (Zulip has none): see docs/LIMITS.md. */
export const MAX_REALM_DOMAINS = 100;
const MAX_DOMAIN_LENGTH = 255;

export interface RealmDomain {
  domain: string;
  allow_subdomains: boolean;
}

/** The realm's allowed domains, as the API presents them. */
export async function getRealmDomains(tx: Tx, realmId: number): Promise<RealmDomain[]> {
  return (await listRealmDomains(tx, realmId)).map((d) => ({ domain: d.domain, allow_subdomains: d.allow_subdomains }));
}

/** POST /register's `realm_domains`. */
export async function realmDomainsState(tx: Tx, realm: RealmRow): Promise<{ realm_domains: RealmDomain[] }> {
  return { realm_domains: await getRealmDomains(tx, realm.id) };
}

/** Why a (stripped, lower-cased) domain is not one (Zulip's validate_domain), or null. */
function domainError(domain: string): string | null {
  if (domain === "") return "Domain can't be empty.";
  if (!domain.includes(".")) return "Domain must have at least one dot (.)";
  if (domain.length > MAX_DOMAIN_LENGTH) return "Domain is too long";
  if (domain.startsWith(".") || domain.endsWith(".")) return "Domain cannot start or end with a dot (.)";
  for (const label of domain.split(".")) {
    if (label === "") return "Consecutive '.' are not allowed.";
    if (label.startsWith("-") || label.endsWith("-")) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

const noEntry = (domain: string) => new ApiError(`No entry found for domain ${domain}.`);

async function publish(deps: AppDeps, tx: Tx, realmId: number, event: Record<string, unknown>): Promise<void> {
  publishOnCommit(tx, deps.events, { type: "realm_domains", ...event }, await listActiveUserIds(tx, realmId));
}

/** POST /realm/domains: returns [id, domain] (Zulip's `new_domain`). */
export async function addRealmDomain(deps: AppDeps, realm: RealmRow, raw: string, allowSubdomains: boolean): Promise<[number, string]> {
  const domain = raw.trim().toLowerCase();
  const error = domainError(domain);
  if (error) throw new ApiError(`Invalid domain: ${error}`);
  return transaction(deps.store, async (tx) => {
    if (await getRealmDomain(tx, realm.id, domain)) throw new ApiError(`The domain ${domain} is already a part of your organization.`);
    if ((await countRealmDomains(tx, realm.id)) >= MAX_REALM_DOMAINS) throw new ApiError(`An organization can have at most ${MAX_REALM_DOMAINS} allowed domains.`);
    const id = await insertRealmDomain(tx, realm.id, domain, allowSubdomains);
    await publish(deps, tx, realm.id, { op: "add", realm_domain: { domain, allow_subdomains: allowSubdomains } });
    return [id, domain];
  });
}

/** PATCH /realm/domains/{domain}. */
export async function changeRealmDomain(deps: AppDeps, realm: RealmRow, domain: string, allowSubdomains: boolean): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const row = await getRealmDomain(tx, realm.id, domain);
    if (!row) throw noEntry(domain);
    await updateRealmDomain(tx, row.id, allowSubdomains);
    await publish(deps, tx, realm.id, { op: "change", realm_domain: { domain, allow_subdomains: allowSubdomains } });
  });
}

/** DELETE /realm/domains/{domain}. */
export async function removeRealmDomain(deps: AppDeps, realm: RealmRow, actor: UserRow, domain: string): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const row = await getRealmDomain(tx, realm.id, domain);
    if (!row) throw noEntry(domain);
    await deleteRealmDomain(tx, row.id);
    await publish(deps, tx, realm.id, { op: "remove", domain });
    const current = (await getRealmById(tx, realm.id)) as RealmRow;
    if ((await countRealmDomains(tx, realm.id)) === 0 && current.emails_restricted_to_domains) {
      // Nobody could join a restricted realm without domains: Zulip lifts the restriction.
      await updateRealm(tx, realm.id, { emails_restricted_to_domains: false });
      await insertAuditLog(tx, {
        realm_id: realm.id,
        event_type: "realm_property_changed",
        event_time: deps.clock.now(),
        acting_user_id: actor.id,
        extra_data: { property: "emails_restricted_to_domains", old_value: true, new_value: false },
      });
      const event = { type: "realm", op: "update", property: "emails_restricted_to_domains", value: false };
      publishOnCommit(tx, deps.events, event, await listActiveUserIds(tx, realm.id));
    }
  });
}
