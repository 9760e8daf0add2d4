/** SQL for user presence (one row per user: last active and last connected times). */
import type { Tx } from "./db.js";

export interface PresenceRow {
  user_id: number;
  realm_id: number;
  last_active_time: number | null;
  last_connected_time: number | null;
  last_update_id: number;
}

export async function getPresenceRows(tx: Tx, realmId: number, sinceSeconds: number): Promise<PresenceRow[]> {
  return tx.db
    .selectFrom("presence")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where((eb) => eb.or([eb("last_connected_time", ">=", sinceSeconds), eb("last_active_time", ">=", sinceSeconds)]))
    .execute();
}

export async function getPresenceRow(tx: Tx, userId: number): Promise<PresenceRow | undefined> {
  return tx.db.selectFrom("presence").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** The last active times of these users (users without presence are left out). */
export async function getLastActiveTimes(tx: Tx, userIds: readonly number[]): Promise<Map<number, number | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx.db.selectFrom("presence").select(["user_id", "last_active_time"]).where("user_id", "in", [...userIds]).execute();
  return new Map(rows.map((r) => [r.user_id, r.last_active_time === null ? null : Number(r.last_active_time)]));
}

export async function getMaxPresenceUpdateId(tx: Tx, realmId: number): Promise<number> {
  const row = await tx.db
    .selectFrom("presence")
    .select((eb) => eb.fn.max("last_update_id").as("max_id"))
    .where("realm_id", "=", realmId)
    .executeTakeFirst();
  return row?.max_id == null ? 0 : Number(row.max_id);
}

export async function upsertPresence(tx: Tx, row: PresenceRow): Promise<void> {
  await tx.db
    .insertInto("presence")
    .values(row)
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({
        last_active_time: row.last_active_time,
        last_connected_time: row.last_connected_time,
        last_update_id: row.last_update_id,
      }),
    )
    .execute();
}
