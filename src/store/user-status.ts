/** SQL for users' statuses (text and emoji). */
import type { Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type UserStatusRow = Selectable<DB["user_status"]>;

export interface StatusChanges {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export async function getUserStatus(tx: Tx, userId: number): Promise<UserStatusRow | undefined> {
  return tx.db.selectFrom("user_status").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** Sets the given fields, creating the row on first use. */
export async function saveUserStatus(tx: Tx, userId: number, changes: StatusChanges, timestamp: number): Promise<void> {
  await tx.db
    .insertInto("user_status")
    .values({ user_id: userId, ...changes, timestamp })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...changes, timestamp }))
    .execute();
}

/** Every status row of the realm's users (for register's user_status). */
export async function listUserStatuses(tx: Tx, realmId: number): Promise<UserStatusRow[]> {
  return tx.db
    .selectFrom("user_status")
    .innerJoin("users", "users.id", "user_status.user_id")
    .selectAll("user_status")
    .where("users.realm_id", "=", realmId)
    .execute();
}
