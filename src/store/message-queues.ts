/**
 * SQL for `user_message_queues` (migration 0020): until when each user may hold an event queue
 * that takes `message` events on some process, so that every process sees every queue when it
 * decides whether a recipient is idle (actions/notifications/queue-activity.ts).
 */
import { sql } from "kysely";
import type { Tx } from "./db.js";

/** Records `until` for the user, never moving it back (another process may have written later). */
export async function recordMessageQueueUntil(tx: Tx, userId: number, until: number): Promise<void> {
  await tx.db
    .insertInto("user_message_queues")
    .values({ user_id: userId, until })
    // PostgreSQL's greatest() is SQLite's two-argument max().
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ until: sql<number>`${sql.raw(tx.dialect === "postgres" ? "greatest" : "max")}(user_message_queues.until, excluded.until)` }))
    .execute();
}

/** The users among `userIds` recorded with a message queue that may still exist at `now`. */
export async function usersWithMessageQueueAt(tx: Tx, userIds: readonly number[], now: number): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await tx.db.selectFrom("user_message_queues").select("user_id").where("user_id", "in", [...userIds]).where("until", ">", now).execute();
  return new Set(rows.map((r) => r.user_id));
}
