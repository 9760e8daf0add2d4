/**
 * Setup for channel and subscription tests: realm settings, folders and user groups written
 * straight to the store (no endpoint of ours sets them), and event lookups in `t.published`.
 */
import { addGroupMembers, addSubgroups, getSystemGroupByName, insertGroup } from "../../src/store/groups.js";
import { USER_GROUP_SETTINGS } from "../../src/policy/user-groups.js";
import { getChannelById } from "../../src/store/channels.js";
import { readTx, transaction } from "../../src/store/db.js";
import { getRealmById, updateRealm } from "../../src/store/realms.js";
import type { ChannelRow, RealmUpdate } from "../../src/store/types.js";
import type { PublishedEvent, TestRealm, UserName } from "./fixtures.js";

export async function systemGroupId(t: TestRealm, name: string): Promise<number> {
  return (await getSystemGroupByName(readTx(t.deps.store), t.realmId, name)).id;
}

/** Points realm group settings (columns like can_add_subscribers_group_id) at system groups by name. */
export async function setRealmGroups(t: TestRealm, settings: Record<string, string>): Promise<void> {
  const changes: Record<string, number> = {};
  for (const [column, group] of Object.entries(settings)) changes[column] = await systemGroupId(t, group);
  await transaction(t.deps.store, (tx) => updateRealm(tx, t.realmId, changes as RealmUpdate));
}

export async function setRealm(t: TestRealm, changes: RealmUpdate): Promise<void> {
  await transaction(t.deps.store, (tx) => updateRealm(tx, t.realmId, changes));
}

/** Sets one key of the realm's JSON settings. */
export async function setRealmSetting(t: TestRealm, key: string, value: unknown): Promise<void> {
  const realm = await getRealmById(readTx(t.deps.store), t.realmId);
  await setRealm(t, { settings: JSON.stringify({ ...JSON.parse(realm!.settings), [key]: value }) });
}

/** The realm's settings JSON, without the uuid every realm has from creation (FL 466). */
export async function realmSettings(t: TestRealm): Promise<Record<string, unknown>> {
  const { uuid: _uuid, ...settings } = JSON.parse((await getRealmById(readTx(t.deps.store), t.realmId))!.settings) as Record<string, unknown>;
  return settings;
}

export async function addFolder(t: TestRealm, name: string, archived = false): Promise<number> {
  const row = await t.deps.store.db
    .insertInto("channel_folders")
    .values({ realm_id: t.realmId, name, creator_id: null, date_created: t.clock.now(), is_archived: archived })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A named user group with these members (and subgroups), its permission settings on system groups
 * as a group Zulip creates has them (the creator-defaulted ones on role:nobody: it has no creator).
 */
export async function addGroup(t: TestRealm, name: string, members: UserName[], subgroups: number[] = []): Promise<number> {
  return transaction(t.deps.store, async (tx) => {
    const settings: Record<string, number> = {};
    for (const s of USER_GROUP_SETTINGS) settings[s.column] = (await getSystemGroupByName(tx, t.realmId, s.default === "creator" ? "role:nobody" : s.default)).id;
    const id = await insertGroup(tx, { realm_id: t.realmId, name, date_created: t.clock.now(), creator_id: null, ...settings });
    await addGroupMembers(tx, id, members.map((u) => t.users[u].id));
    await addSubgroups(tx, id, subgroups);
    return id;
  });
}

export async function channelRow(t: TestRealm, id: number): Promise<ChannelRow> {
  return (await getChannelById(readTx(t.deps.store), t.realmId, id))!;
}

/** Events of a type/op published since `from` (an index into t.published). */
export function eventsOf(t: TestRealm, type: string, op?: string, from = 0): PublishedEvent[] {
  return t.published.slice(from).filter((p) => p.event.type === type && (op === undefined || p.event.op === op));
}

export function ids(t: TestRealm, ...names: UserName[]): number[] {
  return names.map((n) => t.users[n].id).sort((a, b) => a - b);
}

export function sorted(values: Iterable<number>): number[] {
  return [...values].sort((a, b) => a - b);
}
