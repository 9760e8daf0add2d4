/**
 * Creating an organization: the realm row, its eight system groups nested as Zulip nests them
 * (zulip-facts section g), the realm-level group settings pointing at them, the realm's
 * user-settings defaults, and its owner account.
 */
import { randomUUID } from "node:crypto";
import { ApiError } from "../../errors.js";
import type { Store, Tx } from "../../store/db.js";
import { transaction } from "../../store/db.js";
import { addSubgroups, insertGroup, updateGroup } from "../../store/groups.js";
import { getRealmBySubdomain, insertRealm, insertRealmUserDefaults, updateRealm } from "../../store/realms.js";
import type { RealmRow, RealmUpdate, UserRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { getRealmById } from "../../store/realms.js";
import { REALM_GROUP_SETTING_DEFAULTS } from "../../policy/realm-group-settings.js";
import { ROLE } from "../../policy/roles.js";
import { checkCreateUser, type CreatedUser } from "../users/users.js";

/** Innermost first: each group is a direct subgroup of the next one. */
const NESTED_SYSTEM_GROUPS = [
  "role:owners",
  "role:administrators",
  "role:moderators",
  "role:fullmembers",
  "role:members",
  "role:everyone",
  "role:internet",
] as const;

type SystemGroupName = (typeof NESTED_SYSTEM_GROUPS)[number] | "role:nobody";

export const SUBDOMAIN_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)?$/;

export interface NewRealmInput {
  subdomain: string;
  name: string;
  ownerEmail: string;
  ownerName: string;
  ownerPassword: string;
}

async function createSystemGroups(tx: Tx, realmId: number, now: number): Promise<Record<SystemGroupName, number>> {
  const ids = {} as Record<SystemGroupName, number>;
  for (const name of ["role:nobody", ...NESTED_SYSTEM_GROUPS] as const) {
    ids[name] = await insertGroup(tx, { realm_id: realmId, name, is_system_group: true, date_created: now, creator_id: null });
  }
  for (let i = 0; i + 1 < NESTED_SYSTEM_GROUPS.length; i++) {
    await addSubgroups(tx, ids[NESTED_SYSTEM_GROUPS[i + 1]], [ids[NESTED_SYSTEM_GROUPS[i]]]);
  }
  // System groups are managed by roles only; nobody may edit their membership directly.
  for (const id of Object.values(ids)) {
    await updateGroup(tx, id, {
      can_add_members_group_id: ids["role:nobody"],
      can_join_group_id: ids["role:nobody"],
      can_leave_group_id: ids["role:nobody"],
      can_manage_group_id: ids["role:nobody"],
      can_mention_group_id: ids["role:everyone"],
      can_remove_members_group_id: ids["role:nobody"],
    });
  }
  return ids;
}

/** Creates a realm and its owner in one transaction; returns the realm id and owner credentials. */
export async function checkCreateRealm(
  store: Store,
  input: NewRealmInput,
  now: number,
  userDefaults: string = "{}",
  /** Runs in the same transaction once the owner exists: the new organization's channels and messages (realm-onboarding.ts). */
  onboard?: (tx: Tx, realm: RealmRow, owner: UserRow) => Promise<unknown>,
): Promise<{ realmId: number; owner: CreatedUser }> {
  const subdomain = input.subdomain.trim().toLowerCase();
  if (!SUBDOMAIN_PATTERN.test(subdomain)) {
    throw new ApiError("Subdomain can only have lowercase letters, numbers, and '-'s.");
  }
  const name = input.name.trim();
  if (name === "" || [...name].length > 40) throw new ApiError("Organization name must be 1 to 40 characters.");
  return transaction(store, async (tx) => {
    if (await getRealmBySubdomain(tx, subdomain)) throw new ApiError("Subdomain is already in use.");
    // A stable identifier (register's realm_uuid, FL 466); migration 0022 gave older realms theirs.
    const realmId = await insertRealm(tx, { string_id: subdomain, name, date_created: now, settings: JSON.stringify({ uuid: randomUUID() }) });
    const groups = await createSystemGroups(tx, realmId, now);
    const settings: RealmUpdate = {};
    for (const [column, group] of Object.entries(REALM_GROUP_SETTING_DEFAULTS)) {
      (settings as Record<string, number>)[column] = groups[group as SystemGroupName];
    }
    await updateRealm(tx, realmId, settings);
    await insertRealmUserDefaults(tx, realmId, userDefaults);
    const realm = (await getRealmById(tx, realmId)) as RealmRow;
    const owner = await checkCreateUser(
      tx,
      realm,
      { email: input.ownerEmail, fullName: input.ownerName, password: input.ownerPassword, role: ROLE.OWNER },
      now,
    );
    if (onboard) await onboard(tx, realm, (await getUserById(tx, realmId, owner.userId)) as UserRow);
    return { realmId, owner };
  });
}
