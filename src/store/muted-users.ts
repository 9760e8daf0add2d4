/** Muted users (Zulip's MutedUser): who muted whom, and since when (migration 0003; 0016a indexes the muted side). */
import { sql } from "kysely";
import { FLAG_BITS } from "../lib/flags.js";
import type { Tx } from "./db.js";

/** The user's mutes as the API lists them (register and `muted_users` events), oldest first. */
export async function getMutedUsers(tx: Tx, userId: number): Promise<Array<{ id: number; timestamp: number }>> {
  const rows = await tx.db
    .selectFrom("muted_users")
    .select(["muted_user_id", "date_muted"])
    .where("user_id", "=", userId)
    .orderBy("date_muted")
    .orderBy("muted_user_id")
    .execute();
  return rows.map((r) => ({ id: r.muted_user_id, timestamp: Number(r.date_muted) }));
}

/** Inserts the mute unless it exists; answers whether it was new. */
export async function insertMute(tx: Tx, userId: number, mutedUserId: number, dateMuted: number): Promise<boolean> {
  const result = await tx.db
    .insertInto("muted_users")
    .values({ user_id: userId, muted_user_id: mutedUserId, date_muted: dateMuted })
    .onConflict((oc) => oc.columns(["user_id", "muted_user_id"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Deletes the mute; answers whether there was one. */
export async function deleteMute(tx: Tx, userId: number, mutedUserId: number): Promise<boolean> {
  const result = await tx.db.deleteFrom("muted_users").where("user_id", "=", userId).where("muted_user_id", "=", mutedUserId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Everyone who muted `senderId` (Zulip's muted_sender_user_ids, before it is narrowed to one
 * message's recipients). Asked by the muted side's index rather than with the recipients' ids, so
 * a channel of any size costs one small query and no bound on bound parameters.
 */
export async function getMutersOf(tx: Tx, senderId: number): Promise<Set<number>> {
  const rows = await tx.db.selectFrom("muted_users").select("user_id").where("muted_user_id", "=", senderId).execute();
  return new Set(rows.map((r) => r.user_id));
}

/** The user's unread messages sent by `senderId`, ascending (Zulip's do_mark_muted_user_messages_as_read). */
export async function getUnreadFromSender(tx: Tx, userId: number, senderId: number): Promise<number[]> {
  const rows = await tx.db
    .selectFrom("user_messages")
    .innerJoin("messages", "messages.id", "user_messages.message_id")
    .select("user_messages.message_id")
    .where("user_messages.user_id", "=", userId)
    .where("messages.sender_id", "=", senderId)
    .where(sql<number>`user_messages.flags & ${FLAG_BITS.read}`, "=", 0)
    .orderBy("user_messages.message_id")
    .execute();
  return rows.map((r) => Number(r.message_id));
}
