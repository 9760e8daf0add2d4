/**
 * Creating an organization: the realm row, its eight system groups nested as Zulip nests them
 * (zulip-facts section g), the realm-level group settings pointing at them, the realm's
 * user-settings defaults, and its owner account.
 */
import { ApiError } from "../errors.js";
import type { Store, Tx } from "../store/db.js";
import { transaction } from "../store/db.js";
import { addSubgroups, insertGroup, updateGroup } from "../store/groups.js";
import { getRealmBySubdomain, insertRealm, insertRealmUserDefaults, updateRealm } from "../store/realms.js";
import type { RealmRow, RealmUpdate } from "../store/types.js";
import { getRealmById } from "../store/realms.js";
import { ROLE } from "../policy/roles.js";
import { checkCreateUser, type CreatedUser } from "./users.js";

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

/** Zulip's defaults for the realm-level permission settings. */
const REALM_GROUP_SETTING_DEFAULTS: Record<string, SystemGroupName> = {
  can_access_all_users_group_id: "role:everyone",
  can_add_custom_emoji_group_id: "role:members",
  can_add_subscribers_group_id: "role:members",
  can_create_bots_group_id: "role:members",
  can_create_groups_id: "role:members",
  can_create_private_channel_group_id: "role:members",
  can_create_public_channel_group_id: "role:members",
  can_create_web_public_channel_group_id: "role:owners",
  can_create_write_only_bots_group_id: "role:members",
  can_delete_any_message_group_id: "role:administrators",
  can_delete_own_message_group_id: "role:everyone",
  can_invite_users_group_id: "role:members",
  can_manage_all_groups_id: "role:owners",
  can_manage_billing_group_id: "role:administrators",
  can_mention_many_users_group_id: "role:administrators",
  can_move_messages_between_channels_group_id: "role:members",
  can_move_messages_between_topics_group_id: "role:everyone",
  can_resolve_topics_group_id: "role:everyone",
  can_set_delete_message_policy_group_id: "role:moderators",
  can_set_topics_policy_group_id: "role:moderators",
  can_summarize_topics_group_id: "role:everyone",
  create_multiuse_invite_group_id: "role:administrators",
  direct_message_initiator_group_id: "role:everyone",
  direct_message_permission_group_id: "role:everyone",
};

const SUBDOMAIN_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)?$/;

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
): Promise<{ realmId: number; owner: CreatedUser }> {
  const subdomain = input.subdomain.trim().toLowerCase();
  if (!SUBDOMAIN_PATTERN.test(subdomain)) {
    throw new ApiError("Subdomain can only have lowercase letters, numbers, and '-'s.");
  }
  const name = input.name.trim();
  if (name === "" || [...name].length > 40) throw new ApiError("Organization name must be 1 to 40 characters.");
  return transaction(store, async (tx) => {
    if (await getRealmBySubdomain(tx, subdomain)) throw new ApiError("Subdomain is already in use.");
    const realmId = await insertRealm(tx, { string_id: subdomain, name, date_created: now });
    const groups = await createSystemGroups(tx, realmId, now);
    const settings: RealmUpdate = {};
    for (const [column, group] of Object.entries(REALM_GROUP_SETTING_DEFAULTS)) {
      (settings as Record<string, number>)[column] = groups[group];
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
    return { realmId, owner };
  });
}
