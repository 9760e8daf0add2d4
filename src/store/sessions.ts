/** SQL for browser sessions (migration 0005): rows are keyed by a hash of the cookie's token. */
import type { Insertable, Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type SessionRow = Selectable<DB["sessions"]>;

export async function insertSession(tx: Tx, row: Insertable<DB["sessions"]>): Promise<void> {
  await tx.db.insertInto("sessions").values(row).execute();
}

export async function getSessionByKey(tx: Tx, key: string): Promise<SessionRow | undefined> {
  return tx.db.selectFrom("sessions").selectAll().where("key", "=", key).executeTakeFirst();
}

export async function deleteSessionByKey(tx: Tx, key: string): Promise<void> {
  await tx.db.deleteFrom("sessions").where("key", "=", key).execute();
}

/** Removes every session that ended at or before `now` (UTC seconds), across all realms. */
export async function deleteExpiredSessions(tx: Tx, now: number): Promise<void> {
  await tx.db.deleteFrom("sessions").where("expires_at", "<=", now).execute();
}

/** Keeps only the user's `keep` newest sessions. */
export async function trimSessionsOfUser(tx: Tx, userId: number, keep: number): Promise<void> {
  const stale = await tx.db
    .selectFrom("sessions")
    .select("key")
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("key")
    .offset(keep)
    .limit(1000)
    .execute();
  if (stale.length > 0) await tx.db.deleteFrom("sessions").where("key", "in", stale.map((s) => s.key)).execute();
}

/** Ends every browser session of the realm (it was deactivated). */
export async function deleteSessionsOfRealm(tx: Tx, realmId: number): Promise<void> {
  await tx.db.deleteFrom("sessions").where("realm_id", "=", realmId).execute();
}
