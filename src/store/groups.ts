/** SQL for user groups: named, system and anonymous (group-setting values), with memberships. */
import { StampMemo } from "./change-stamp.js";
import type { Tx } from "./db.js";
import { prepared } from "./prepared.js";
import type { NewUserGroup, UserGroupRow, UserGroupUpdate } from "./types.js";

export async function insertGroup(tx: Tx, group: NewUserGroup): Promise<number> {
  const row = await tx.db.insertInto("user_groups").values(group).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function updateGroup(tx: Tx, id: number, changes: UserGroupUpdate): Promise<void> {
  await tx.db.updateTable("user_groups").set(changes).where("id", "=", id).execute();
}

export async function getSystemGroups(tx: Tx, realmId: number): Promise<UserGroupRow[]> {
  return tx.db
    .selectFrom("user_groups")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("is_system_group", "=", true)
    .execute();
}

export async function addGroupMembers(tx: Tx, groupId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.db
    .insertInto("user_group_members")
    .values(userIds.map((user_id) => ({ group_id: groupId, user_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeGroupMembers(tx: Tx, groupId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.db
    .deleteFrom("user_group_members")
    .where("group_id", "=", groupId)
    .where("user_id", "in", userIds)
    .execute();
}

export async function addSubgroups(tx: Tx, groupId: number, subgroupIds: number[]): Promise<void> {
  if (subgroupIds.length === 0) return;
  await tx.db
    .insertInto("user_group_subgroups")
    .values(subgroupIds.map((subgroup_id) => ({ supergroup_id: groupId, subgroup_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Ids of the groups the user is a direct member of. */
export async function getDirectGroupIds(tx: Tx, userId: number): Promise<number[]> {
  const rows = await tx.db.selectFrom("user_group_members").select("group_id").where("user_id", "=", userId).execute();
  return rows.map((r) => r.group_id);
}

/**
 * Every group the user belongs to, directly or through subgroups at any depth (a member of a
 * subgroup is a member of its supergroups: zulip-facts section g). One recursive query, compiled
 * once: nearly every permission check starts here (prepared.ts).
 */
const recursiveGroupIds = prepared<{ userId: number }, { group_id: number }>((db, arg) =>
  db
    .withRecursive("member_of(group_id)", (qb) =>
      qb
        .selectFrom("user_group_members")
        .select("group_id")
        .where("user_id", "=", arg("userId"))
        .union(
          qb
            .selectFrom("user_group_subgroups")
            .innerJoin("member_of", "member_of.group_id", "user_group_subgroups.subgroup_id")
            .select("user_group_subgroups.supergroup_id as group_id"),
        ),
    )
    .selectFrom("member_of")
    .select("group_id"),
);

/**
 * Kept per user while the store's change stamp holds (change-stamp.ts): any write moves it, a
 * membership change included. A fetch or a send asks once per request; the recursive query was
 * ~0.1 ms of a 1.5 ms fetch on SQLite (issue 21, S16). Callers get a copy of their own.
 */
const groupIdsMemo = new StampMemo<number, ReadonlySet<number>>();

export async function getRecursiveGroupIds(tx: Tx, userId: number): Promise<Set<number>> {
  const ids = await groupIdsMemo.get(tx, userId, async () => new Set((await recursiveGroupIds(tx, { userId })).map((r) => Number(r.group_id))));
  return new Set(ids);
}

export async function getGroupById(tx: Tx, realmId: number, id: number): Promise<UserGroupRow | undefined> {
  return tx.db.selectFrom("user_groups").selectAll().where("id", "=", id).where("realm_id", "=", realmId).executeTakeFirst();
}

export async function getSystemGroupByName(tx: Tx, realmId: number, name: string): Promise<UserGroupRow> {
  return tx.db
    .selectFrom("user_groups")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("name", "=", name)
    .where("is_system_group", "=", true)
    .executeTakeFirstOrThrow();
}

/** Direct members and direct subgroups of one group (to present anonymous group settings). */
export async function getGroupComposition(tx: Tx, groupId: number): Promise<{ members: number[]; subgroups: number[] }> {
  const [members, subgroups] = await Promise.all([
    tx.db.selectFrom("user_group_members").select("user_id").where("group_id", "=", groupId).orderBy("user_id").execute(),
    tx.db.selectFrom("user_group_subgroups").select("subgroup_id").where("supergroup_id", "=", groupId).orderBy("subgroup_id").execute(),
  ]);
  return { members: members.map((m) => m.user_id), subgroups: subgroups.map((s) => s.subgroup_id) };
}

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/**
 * The API form of group-setting values for the given group ids: a named (or system) group is its
 * id; an anonymous group is {direct_members, direct_subgroups} (spec conventions 6). Deactivated
 * users keep their rows but are never listed in direct_members (Zulip FL 303).
 */
export async function getGroupSettingValues(tx: Tx, groupIds: readonly number[]): Promise<Map<number, GroupSettingValue>> {
  const ids = [...new Set(groupIds)];
  const out = new Map<number, GroupSettingValue>();
  if (ids.length === 0) return out;
  const anonymous = await tx.db.selectFrom("user_groups").select("id").where("id", "in", ids).where("name", "is", null).execute();
  const anonIds = anonymous.map((g) => g.id);
  for (const id of ids) out.set(id, id);
  if (anonIds.length === 0) return out;
  const [members, subgroups] = await Promise.all([
    tx.db
      .selectFrom("user_group_members")
      .innerJoin("users", "users.id", "user_group_members.user_id")
      .select(["user_group_members.group_id", "user_group_members.user_id"])
      .where("user_group_members.group_id", "in", anonIds)
      .where("users.is_active", "=", true)
      .orderBy("user_group_members.user_id")
      .execute(),
    tx.db.selectFrom("user_group_subgroups").select(["supergroup_id", "subgroup_id"]).where("supergroup_id", "in", anonIds).orderBy("subgroup_id").execute(),
  ]);
  for (const id of anonIds) out.set(id, { direct_members: [], direct_subgroups: [] });
  for (const m of members) (out.get(m.group_id) as { direct_members: number[] }).direct_members.push(m.user_id);
  for (const s of subgroups) (out.get(s.supergroup_id) as { direct_subgroups: number[] }).direct_subgroups.push(s.subgroup_id);
  return out;
}

export async function getGroupsByIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<UserGroupRow[]> {
  if (ids.length === 0) return [];
  return tx.db.selectFrom("user_groups").selectAll().where("realm_id", "=", realmId).where("id", "in", ids).execute();
}

/** Distinct direct members of any of the groups. */
export async function getGroupMemberIds(tx: Tx, groupIds: readonly number[]): Promise<number[]> {
  if (groupIds.length === 0) return [];
  const rows = await tx.db.selectFrom("user_group_members").select("user_id").distinct().where("group_id", "in", groupIds).execute();
  return rows.map((r) => r.user_id);
}
