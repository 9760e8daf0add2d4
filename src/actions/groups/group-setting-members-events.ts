/**
 * Group-setting values after a user's deactivation or reactivation (Zulip FL 303). A deactivated
 * user keeps their memberships in the anonymous groups that hold group-setting values, but the
 * API never lists them in `direct_members` (store/groups.ts getGroupSettingValues); every setting
 * whose anonymous group has the user as a direct member is announced again with its new value,
 * through the event that carries that kind of setting: realm update_dict, user_group update or
 * stream update. Zulip sends them on reactivation (the user is back). On deactivation its clients
 * drop the user themselves when realm_user says is_active false, which covers realm and group
 * settings but not channels' (Zulip's pending fix, zulip/zulip#33371, sends these events then
 * too); Parley sends them both ways, so every client ends with the values a fresh register returns.
 */
import type { AppDeps } from "../../deps.js";
import { publishOnCommit } from "../../events/bus.js";
import { CHANNEL_GROUP_SETTINGS } from "../../policy/channel-settings.js";
import { REALM_GROUP_SETTINGS } from "../../policy/realm-group-settings.js";
import { USER_GROUP_SETTINGS } from "../../policy/user-groups.js";
import { listChannels } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getDirectGroupIds, getGroupSettingValues, getGroupsByIds, type GroupSettingValue } from "../../store/groups.js";
import { getRealmById } from "../../store/realms.js";
import { getNamedGroups } from "../../store/state.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";
import { publishAccessChanges } from "../channels/channel-access-events.js";
import { publishGroupEvent } from "./user-groups.js";

/** The settings of `row` (by column) whose group is one of `values`, with their new API values. */
function changedSettings(row: object, settings: ReadonlyArray<{ name: string; column: string }>, values: ReadonlyMap<number, GroupSettingValue>) {
  const columns = row as Record<string, unknown>;
  return settings
    .filter((s) => values.has(columns[s.column] as number))
    .map((s) => ({ property: s.name, value: values.get(columns[s.column] as number) as GroupSettingValue }));
}

/** Call after the user's is_active changed, in the same transaction. */
export async function publishGroupSettingsOfUser(deps: AppDeps, tx: Tx, user: UserRow): Promise<void> {
  const groups = await getGroupsByIds(tx, user.realm_id, await getDirectGroupIds(tx, user.id));
  const anonymousIds = groups.filter((g) => g.name === null).map((g) => g.id);
  if (anonymousIds.length === 0) return;
  const values = await getGroupSettingValues(tx, anonymousIds);
  const realm = (await getRealmById(tx, user.realm_id)) as RealmRow;

  const realmChanges = changedSettings(realm, REALM_GROUP_SETTINGS, values);
  if (realmChanges.length > 0) {
    const data = Object.fromEntries(realmChanges.map((c) => [c.property, c.value]));
    publishOnCommit(tx, deps.events, { type: "realm", op: "update_dict", property: "default", data }, await listActiveUserIds(tx, realm.id));
  }
  for (const group of await getNamedGroups(tx, realm.id)) {
    const changes = changedSettings(group, USER_GROUP_SETTINGS, values);
    if (changes.length === 0) continue;
    const data = Object.fromEntries(changes.map((c) => [c.property, c.value]));
    await publishGroupEvent(deps, tx, realm.id, { op: "update", group_id: group.id, data });
  }
  for (const channel of await listChannels(tx, realm.id, { includeArchived: true })) {
    const changes = changedSettings(channel, CHANNEL_GROUP_SETTINGS, values);
    // The channel's audience is unchanged: everyone who sees it gets a stream update per setting.
    if (changes.length > 0) await publishAccessChanges(deps, tx, realm, channel, channel, changes);
  }
}
