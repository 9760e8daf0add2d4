/**
 * Turning a group-setting value from a request into the group row it is stored as (zulip-facts
 * section g): an integer names an existing group; {direct_members, direct_subgroups} becomes an
 * anonymous group, except that a lone subgroup is canonicalized to that group's id.
 */
import { ApiError } from "../../errors.js";
import type { GroupSettingConfig } from "../../policy/group-settings.js";
import type { Tx } from "../../store/db.js";
import { addGroupMembers, addSubgroups, getGroupsByIds, getSystemGroupByName, insertGroup, type GroupSettingValue } from "../../store/groups.js";
import type { RealmRow } from "../../store/types.js";
import { invalidParam } from "../../errors.js";
import * as v from "../../lib/validate.js";

/** Validator for a group-setting parameter value. */
export const groupSettingValue: v.Validator<GroupSettingValue> = (value, name) => {
  if (typeof value === "number") return v.int(value, name);
  return v.object({
    direct_members: v.field(v.listOf(v.int)),
    direct_subgroups: v.field(v.listOf(v.int)),
  })(value, name);
};

async function checkUsersInRealm(tx: Tx, realm: RealmRow, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  const rows = await tx.db.selectFrom("users").select("id").where("realm_id", "=", realm.id).where("id", "in", userIds).execute();
  const found = new Set(rows.map((r) => r.id));
  const missing = userIds.find((id) => !found.has(id));
  if (missing !== undefined) throw new ApiError(`Invalid user ID: ${missing}`);
}

/** Validates the value against the setting's config and returns the group id to store. */
export async function resolveGroupSetting(
  tx: Tx,
  realm: RealmRow,
  settingName: string,
  value: GroupSettingValue,
  config: GroupSettingConfig,
  now: number,
): Promise<number> {
  if (typeof value !== "number" && value.direct_members.length === 0 && value.direct_subgroups.length === 1) {
    value = value.direct_subgroups[0];
  }
  // An empty anonymous group means nobody: Zulip stores it as the role:nobody system group.
  if (typeof value !== "number" && value.direct_members.length === 0 && value.direct_subgroups.length === 0) {
    value = (await getSystemGroupByName(tx, realm.id, "role:nobody")).id;
  }
  const groupIds = typeof value === "number" ? [value] : value.direct_subgroups;
  const groups = await getGroupsByIds(tx, realm.id, groupIds);
  if (groups.length !== new Set(groupIds).size) throw new ApiError("Invalid user group");
  if (typeof value === "number") {
    const group = groups[0];
    if (group.deactivated) throw new ApiError("User group is deactivated.");
    if (config.requireSystem && !group.is_system_group) {
      throw new ApiError(`'${settingName}' must be a system user group.`, "SYSTEM_GROUP_REQUIRED");
    }
    const forbidden =
      (group.name === "role:internet" && !config.allowInternet) ||
      (group.name === "role:nobody" && !config.allowNobody) ||
      (group.name === "role:everyone" && !config.allowEveryone) ||
      (group.name === "role:owners" && config.allowOwners === false);
    if (forbidden) throw invalidParam(`'${settingName}' setting cannot be set to '${group.name}' group.`);
    return value;
  }
  if (config.requireSystem) throw new ApiError(`'${settingName}' must be a system user group.`, "SYSTEM_GROUP_REQUIRED");
  await checkUsersInRealm(tx, realm, value.direct_members);
  const id = await insertGroup(tx, { realm_id: realm.id, name: null, date_created: now, creator_id: null });
  await addGroupMembers(tx, id, [...new Set(value.direct_members)]);
  await addSubgroups(tx, id, [...new Set(value.direct_subgroups)]);
  return id;
}
