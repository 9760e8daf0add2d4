/**
 * What keeps a user group from being deactivated (Zulip's access_user_group_for_deactivation):
 * active named supergroups, and any permission setting (of a channel, a group or the realm) whose
 * value is the group or an anonymous group holding it as a direct subgroup.
 */
import { CHANNEL_GROUP_SETTINGS } from "../../policy/channel-settings.js";
import { USER_GROUP_SETTINGS } from "../../policy/user-groups.js";
import type { Tx } from "../../store/db.js";
import type { RealmRow } from "../../store/types.js";
import { getDirectSupergroups, listActiveChannelSettings, listNamedGroups } from "../../store/user-groups.js";

export type Objection = Record<string, unknown> & { type: "subgroup" | "channel" | "user_group" | "realm" };

/** The realm's group settings: every `*_id` column but string_id points at a user group. */
function realmSettingColumns(realm: RealmRow): string[] {
  return Object.keys(realm).filter((k) => k.endsWith("_id") && k !== "string_id");
}

export async function findGroupObjections(tx: Tx, realm: RealmRow, groupId: number): Promise<Objection[]> {
  const objections: Objection[] = [];
  const supergroups = await getDirectSupergroups(tx, groupId);
  const named = supergroups.filter((g) => g.name !== null && !g.deactivated).map((g) => g.id);
  if (named.length > 0) objections.push({ type: "subgroup", supergroup_ids: named.sort((a, b) => a - b) });
  const using = new Set([groupId, ...supergroups.filter((g) => g.name === null).map((g) => g.id)]);

  for (const channel of await listActiveChannelSettings(tx, realm.id)) {
    const row = channel as unknown as Record<string, number | null>;
    const settings = CHANNEL_GROUP_SETTINGS.filter((s) => using.has(row[s.column] as number)).map((s) => s.name);
    if (settings.length > 0) objections.push({ type: "channel", channel_id: channel.id, settings });
  }
  for (const group of await listNamedGroups(tx, realm.id, { includeDeactivated: false })) {
    const settings = USER_GROUP_SETTINGS.filter((s) => using.has(group[s.column] as number)).map((s) => s.name);
    if (settings.length > 0) objections.push({ type: "user_group", group_id: group.id, settings });
  }
  const realmRow = realm as unknown as Record<string, number | null>;
  const realmSettings = realmSettingColumns(realm).filter((k) => using.has(realmRow[k] as number)).map((k) => k.replace(/_id$/, ""));
  if (realmSettings.length > 0) objections.push({ type: "realm", settings: realmSettings });
  return objections;
}
