/**
 * SQL for named user groups (Zulip's NamedUserGroup): listing, membership and the recursive
 * subgroup graph, and the settings that may point at a group. Anonymous groups (name NULL) hold
 * group-setting values and are never listed here.
 */
import { sql } from "kysely";
import type { Tx } from "./db.js";
import type { UserGroupRow } from "./types.js";

export async function listNamedGroups(tx: Tx, realmId: number, opts: { includeDeactivated: boolean }): Promise<UserGroupRow[]> {
  let q = tx.db.selectFrom("user_groups").selectAll().where("realm_id", "=", realmId).where("name", "is not", null);
  if (!opts.includeDeactivated) q = q.where("deactivated", "=", false);
  return q.orderBy("id").execute();
}

export async function getNamedGroup(tx: Tx, realmId: number, id: number): Promise<UserGroupRow | undefined> {
  return tx.db
    .selectFrom("user_groups")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("id", "=", id)
    .where("name", "is not", null)
    .executeTakeFirst();
}

export async function getNamedGroupsByIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<UserGroupRow[]> {
  if (ids.length === 0) return [];
  return tx.db
    .selectFrom("user_groups")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("id", "in", [...new Set(ids)])
    .where("name", "is not", null)
    .execute();
}

/** Direct members of each group, active accounts only (deactivated users keep their rows but never count). */
export async function getActiveDirectMembers(tx: Tx, groupIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows = await tx.db
    .selectFrom("user_group_members")
    .innerJoin("users", "users.id", "user_group_members.user_id")
    .select(["user_group_members.group_id", "user_group_members.user_id"])
    .where("user_group_members.group_id", "in", [...new Set(groupIds)])
    .where("users.is_active", "=", true)
    .orderBy("user_group_members.user_id")
    .execute();
  for (const r of rows) out.get(r.group_id)?.push(r.user_id);
  return out;
}

/** Direct members among the given users, whether active or not. */
export async function getDirectMembersAmong(tx: Tx, groupId: number, userIds: readonly number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await tx.db
    .selectFrom("user_group_members")
    .select("user_id")
    .where("group_id", "=", groupId)
    .where("user_id", "in", [...new Set(userIds)])
    .execute();
  return rows.map((r) => r.user_id);
}

export async function getDirectSubgroupIds(tx: Tx, groupIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows = await tx.db
    .selectFrom("user_group_subgroups")
    .select(["supergroup_id", "subgroup_id"])
    .where("supergroup_id", "in", [...new Set(groupIds)])
    .orderBy("subgroup_id")
    .execute();
  for (const r of rows) out.get(r.supergroup_id)?.push(r.subgroup_id);
  return out;
}

/** The groups and all their subgroups at any depth (the given ids included). */
export async function getRecursiveSubgroupIds(tx: Tx, groupIds: readonly number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const rows = await tx.db
    .withRecursive("sub(group_id)", (db) =>
      db
        .selectFrom("user_groups")
        .select("id as group_id")
        .where("id", "in", [...new Set(groupIds)])
        .union(
          db
            .selectFrom("user_group_subgroups")
            .innerJoin("sub", "sub.group_id", "user_group_subgroups.supergroup_id")
            .select("user_group_subgroups.subgroup_id as group_id"),
        ),
    )
    .selectFrom("sub")
    .select("group_id")
    .execute();
  return new Set(rows.map((r) => Number(r.group_id)));
}

/** Active members of the group, directly or through subgroups at any depth. */
export async function getRecursiveMemberIds(tx: Tx, groupId: number): Promise<number[]> {
  const groups = [...(await getRecursiveSubgroupIds(tx, [groupId]))];
  const rows = await tx.db
    .selectFrom("user_group_members")
    .innerJoin("users", "users.id", "user_group_members.user_id")
    .select("user_group_members.user_id")
    .distinct()
    .where("user_group_members.group_id", "in", groups)
    .where("users.is_active", "=", true)
    .orderBy("user_group_members.user_id")
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * Every member of the groups, directly or through subgroups at any depth, deactivated accounts
 * included (Zulip's get_recursive_group_members_union_for_groups).
 */
export async function getRecursiveMemberIdsOfGroups(tx: Tx, groupIds: readonly number[]): Promise<number[]> {
  const groups = [...(await getRecursiveSubgroupIds(tx, groupIds))];
  if (groups.length === 0) return [];
  const rows = await tx.db.selectFrom("user_group_members").select("user_id").distinct().where("group_id", "in", groups).execute();
  return rows.map((r) => r.user_id);
}

export async function removeSubgroups(tx: Tx, groupId: number, subgroupIds: readonly number[]): Promise<void> {
  if (subgroupIds.length === 0) return;
  await tx.db
    .deleteFrom("user_group_subgroups")
    .where("supergroup_id", "=", groupId)
    .where("subgroup_id", "in", [...subgroupIds])
    .execute();
}

/** Groups holding this one as a direct subgroup, with whether each is named and active. */
export async function getDirectSupergroups(tx: Tx, groupId: number): Promise<Array<{ id: number; name: string | null; deactivated: boolean }>> {
  return tx.db
    .selectFrom("user_group_subgroups")
    .innerJoin("user_groups", "user_groups.id", "user_group_subgroups.supergroup_id")
    .select(["user_groups.id", "user_groups.name", "user_groups.deactivated"])
    .where("user_group_subgroups.subgroup_id", "=", groupId)
    .execute();
}

/** Active channels of the realm with their group-setting columns (to find settings using a group). */
export async function listActiveChannelSettings(tx: Tx, realmId: number) {
  return tx.db.selectFrom("channels").selectAll().where("realm_id", "=", realmId).where("deactivated", "=", false).orderBy("id").execute();
}

/** Case-sensitive name check for a new or renamed group, as Zulip's unique (realm, name). */
export async function groupNameTaken(tx: Tx, realmId: number, name: string): Promise<boolean> {
  const row = await tx.db
    .selectFrom("user_groups")
    .select(sql<number>`1`.as("one"))
    .where("realm_id", "=", realmId)
    .where("name", "=", name)
    .executeTakeFirst();
  return row !== undefined;
}
