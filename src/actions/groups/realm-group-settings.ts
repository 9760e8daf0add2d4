/**
 * Changing the realm's group settings through PATCH /realm (zulip-facts section g): each change is
 * {"new": value, "old"?: value}; an `old` that is not the current value is EXPECTATION_MISMATCH,
 * a `new` equal to the current value changes nothing. Everyone hears of each change
 * (realm update_dict with the setting's new API value).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError, invalidParam } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import * as v from "../../lib/validate.js";
import { REALM_GROUP_SETTINGS, type RealmGroupSetting } from "../../policy/realm-group-settings.js";
import type { Tx } from "../../store/db.js";
import { getGroupById, getGroupSettingValues, type GroupSettingValue } from "../../store/groups.js";
import { insertAuditLog, updateRealm } from "../../store/realms.js";
import type { RealmRow, RealmUpdate, UserRow } from "../../store/types.js";
import { groupSettingValue, resolveGroupSetting } from "./group-settings.js";

export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export const groupSettingChange: v.Validator<GroupSettingChange> = v.object({
  new: v.field(groupSettingValue),
  old: v.optionalField(groupSettingValue),
});

/** The form the server keeps: sorted, without repeats, a lone subgroup as its id. */
function canonical(value: GroupSettingValue): GroupSettingValue {
  if (typeof value === "number") return value;
  const members = [...new Set(value.direct_members)].sort((a, b) => a - b);
  const subgroups = [...new Set(value.direct_subgroups)].sort((a, b) => a - b);
  if (members.length === 0 && subgroups.length === 1) return subgroups[0];
  return { direct_members: members, direct_subgroups: subgroups };
}

const sameValue = (a: GroupSettingValue, b: GroupSettingValue | undefined) => JSON.stringify(canonical(a)) === JSON.stringify(b === undefined ? b : canonical(b));

const groupIdOf = (realm: RealmRow, setting: RealmGroupSetting) => (realm as unknown as Record<string, number>)[setting.column];

export interface PendingGroupSetting {
  setting: RealmGroupSetting;
  value: GroupSettingValue;
}

/** The requested changes that change something, after the `old` checks; writes nothing. */
export async function checkRealmGroupSettingChanges(tx: Tx, realm: RealmRow, changes: ReadonlyMap<string, GroupSettingChange>): Promise<PendingGroupSetting[]> {
  const settings = REALM_GROUP_SETTINGS.filter((s) => changes.has(s.name));
  const current = await getGroupSettingValues(tx, settings.map((s) => groupIdOf(realm, s)));
  const pending: PendingGroupSetting[] = [];
  for (const setting of settings) {
    const change = changes.get(setting.name) as GroupSettingChange;
    const now = current.get(groupIdOf(realm, setting));
    if (change.old !== undefined && !sameValue(change.old, now)) {
      throw new ApiError(`'${setting.name}' value does not match the expected value.`, "EXPECTATION_MISMATCH");
    }
    if (!sameValue(change.new, now)) pending.push({ setting, value: change.new });
  }
  return pending;
}

/** Stores the changes (anonymous groups created as needed) and tells everyone; returns the new API values. */
export async function doSetRealmGroupSettings(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  actor: UserRow,
  pending: readonly PendingGroupSetting[],
  audience: readonly number[],
): Promise<Record<string, GroupSettingValue>> {
  const now = deps.clock.now();
  const data: Record<string, GroupSettingValue> = {};
  for (const { setting, value } of pending) {
    const id = await resolveGroupSetting(tx, realm, setting.name, value, setting.config, now);
    const group = await getGroupById(tx, realm.id, id);
    if (setting.allowedSystemGroups && group?.is_system_group && !setting.allowedSystemGroups.includes(group.name as string)) {
      throw invalidParam(`'${setting.name}' setting cannot be set to '${group.name}' group.`);
    }
    await updateRealm(tx, realm.id, { [setting.column]: id } as RealmUpdate);
    const apiValue = (await getGroupSettingValues(tx, [id])).get(id) as GroupSettingValue;
    await insertAuditLog(tx, {
      realm_id: realm.id,
      event_type: "realm_property_changed",
      event_time: now,
      acting_user_id: actor.id,
      extra_data: { property: setting.name, new_value: apiValue },
    });
    publishOnCommit(tx, deps.events, { type: "realm", op: "update_dict", property: "default", data: { [setting.name]: apiValue } }, audience);
    data[setting.name] = apiValue;
  }
  return data;
}
