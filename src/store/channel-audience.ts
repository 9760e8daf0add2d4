/**
 * SQL behind "who can see a channel": the realm's active users with their roles, and the users who
 * belong, at any depth, to the groups that grant access (zulip-facts section g).
 */
import type { Tx } from "./db.js";

export interface AudienceUser {
  id: number;
  role: number;
}

/** Active users (bots included) of the realm with their roles. */
export async function getActiveRealmUsers(tx: Tx, realmId: number): Promise<AudienceUser[]> {
  return tx.db.selectFrom("users").select(["id", "role"]).where("realm_id", "=", realmId).where("is_active", "=", true).execute();
}

/**
 * For each group, the active users in it directly or through subgroups at any depth; one
 * recursive query for all the groups.
 */
export async function getRecursiveGroupMembers(tx: Tx, groupIds: readonly number[]): Promise<Map<number, Set<number>>> {
  const roots = [...new Set(groupIds)];
  const out = new Map<number, Set<number>>(roots.map((id) => [id, new Set()]));
  if (roots.length === 0) return out;
  const rows = await tx.db
    .withRecursive("descendants(root_id, group_id)", (db) =>
      db
        .selectFrom("user_groups")
        .select(["id as root_id", "id as group_id"])
        .where("id", "in", roots)
        .union(
          db
            .selectFrom("user_group_subgroups")
            .innerJoin("descendants", "descendants.group_id", "user_group_subgroups.supergroup_id")
            .select(["descendants.root_id", "user_group_subgroups.subgroup_id as group_id"]),
        ),
    )
    .selectFrom("descendants")
    .innerJoin("user_group_members", "user_group_members.group_id", "descendants.group_id")
    .innerJoin("users", "users.id", "user_group_members.user_id")
    .select(["descendants.root_id", "user_group_members.user_id"])
    .where("users.is_active", "=", true)
    .execute();
  for (const r of rows) out.get(Number(r.root_id))?.add(r.user_id);
  return out;
}
