/** SQL for per-user message rows (Zulip's UserMessage) beyond sending: flag changes, moves, read state. */
import { sql } from "kysely";
import { FLAG_BITS } from "../lib/flags.js";
import { inBatches } from "./batches.js";
import type { Tx } from "./db.js";

export interface UserMessageRow {
  user_id: number;
  message_id: number;
  flags: number;
}


const normalise = (r: { user_id: number; message_id: number | string; flags: number }): UserMessageRow => ({
  user_id: r.user_id,
  message_id: Number(r.message_id),
  flags: r.flags,
});

/** Every user's row for these messages. */
export async function getUserMessageRows(tx: Tx, messageIds: readonly number[]): Promise<UserMessageRow[]> {
  const out: UserMessageRow[] = [];
  for (const ids of inBatches(messageIds)) {
    const rows = await tx.db.selectFrom("user_messages").select(["user_id", "message_id", "flags"]).where("message_id", "in", ids).execute();
    out.push(...rows.map(normalise));
  }
  return out;
}

/** Distinct users holding a row for any of these messages, optionally leaving out one role. */
export async function getUserIdsWithRows(tx: Tx, messageIds: readonly number[], opts: { excludeRole?: number } = {}): Promise<number[]> {
  const out = new Set<number>();
  for (const ids of inBatches(messageIds)) {
    let q = tx.db
      .selectFrom("user_messages")
      .innerJoin("users", "users.id", "user_messages.user_id")
      .select("user_messages.user_id")
      .distinct()
      .where("user_messages.message_id", "in", ids);
    if (opts.excludeRole !== undefined) q = q.where("users.role", "!=", opts.excludeRole);
    for (const r of await q.execute()) out.add(r.user_id);
  }
  return [...out].sort((a, b) => a - b);
}

/** Sets or clears one flag bit on the user's rows for these messages. */
export async function changeFlagBit(tx: Tx, userId: number, messageIds: readonly number[], bit: number, add: boolean): Promise<void> {
  const value = add ? sql<number>`flags | ${bit}` : sql<number>`flags & ${~bit}`;
  for (const ids of inBatches(messageIds)) {
    await tx.db.updateTable("user_messages").set({ flags: value }).where("user_id", "=", userId).where("message_id", "in", ids).execute();
  }
}

/** Writes the given flag values back, one row at a time (used after re-rendering an edit). */
export async function setUserMessageFlags(tx: Tx, rows: readonly UserMessageRow[]): Promise<void> {
  for (const r of rows) {
    await tx.db.updateTable("user_messages").set({ flags: r.flags }).where("user_id", "=", r.user_id).where("message_id", "=", r.message_id).execute();
  }
}

/** Inserts rows, leaving any existing row for the same user and message untouched. */
export async function insertUserMessagesIfMissing(tx: Tx, rows: readonly UserMessageRow[]): Promise<void> {
  for (const part of inBatches(rows)) {
    await tx.db
      .insertInto("user_messages")
      .values(part)
      .onConflict((oc) => oc.columns(["user_id", "message_id"]).doNothing())
      .execute();
  }
}

export async function deleteUserMessageRows(tx: Tx, userIds: readonly number[], messageIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  for (const ids of inBatches(messageIds)) {
    await tx.db.deleteFrom("user_messages").where("user_id", "in", [...userIds]).where("message_id", "in", ids).execute();
  }
}

/** The user's unread messages, optionally only those of one channel (and topic, case-insensitive). */
export async function getUnreadMessageIds(tx: Tx, userId: number, where: { recipientId?: number; topic?: string } = {}): Promise<number[]> {
  let q = tx.db
    .selectFrom("user_messages")
    .innerJoin("messages", "messages.id", "user_messages.message_id")
    .select("user_messages.message_id")
    .where("user_messages.user_id", "=", userId)
    .where(sql<number>`user_messages.flags & ${FLAG_BITS.read}`, "=", 0);
  if (where.recipientId !== undefined) q = q.where("messages.recipient_id", "=", where.recipientId);
  if (where.topic !== undefined) q = q.where(sql<string>`lower(messages.subject)`, "=", where.topic.toLowerCase());
  return (await q.orderBy("user_messages.message_id").execute()).map((r) => Number(r.message_id));
}

/** Marks all of the user's messages read; returns how many changed. */
export async function markAllRead(tx: Tx, userId: number): Promise<number> {
  const result = await tx.db
    .updateTable("user_messages")
    .set({ flags: sql<number>`flags | ${FLAG_BITS.read}` })
    .where("user_id", "=", userId)
    .where(sql<number>`flags & ${FLAG_BITS.read}`, "=", 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether the user has a row for any message of the channel topic. */
export async function userHasTopicMessages(tx: Tx, userId: number, recipientId: number, topic: string): Promise<boolean> {
  const row = await tx.db
    .selectFrom("user_messages")
    .innerJoin("messages", "messages.id", "user_messages.message_id")
    .select("user_messages.message_id")
    .where("user_messages.user_id", "=", userId)
    .where("messages.recipient_id", "=", recipientId)
    .where(sql<string>`lower(messages.subject)`, "=", topic.toLowerCase())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
