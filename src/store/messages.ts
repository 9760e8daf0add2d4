/** SQL for messages and per-user message rows (Zulip's Message and UserMessage). */
import { sql } from "kysely";
import { insertRows } from "./bulk-insert.js";
import type { Tx } from "./db.js";
import type { MessageRow, NewMessage } from "./types.js";

export async function insertMessage(tx: Tx, message: NewMessage): Promise<number> {
  const row = await tx.db.insertInto("messages").values(message).returning("id").executeTakeFirstOrThrow();
  const id = Number(row.id);
  if (tx.dialect === "sqlite") {
    await sql`INSERT INTO messages_fts(rowid, subject, content) VALUES (${id}, ${message.subject ?? ""}, ${message.content})`.execute(tx.db);
  }
  return id;
}

/** Keeps the SQLite full-text index in step with a message's topic/content (PostgreSQL's is generated). */
export async function reindexMessage(
  tx: Tx,
  id: number,
  old: { subject: string; content: string },
  fresh: { subject: string; content: string },
): Promise<void> {
  if (tx.dialect !== "sqlite") return;
  await unindexMessage(tx, id, old);
  await sql`INSERT INTO messages_fts(rowid, subject, content) VALUES (${id}, ${fresh.subject}, ${fresh.content})`.execute(tx.db);
}

/** Drops a message from the SQLite full-text index; a contentless table needs the indexed values. */
export async function unindexMessage(tx: Tx, id: number, old: { subject: string; content: string }): Promise<void> {
  if (tx.dialect !== "sqlite") return;
  await sql`INSERT INTO messages_fts(messages_fts, rowid, subject, content) VALUES ('delete', ${id}, ${old.subject}, ${old.content})`.execute(tx.db);
}

export async function insertUserMessages(tx: Tx, rows: ReadonlyArray<{ user_id: number; message_id: number; flags: number }>): Promise<void> {
  await insertRows(tx, "user_messages", ["user_id", "message_id", "flags"], rows);
}

export async function getMessageById(tx: Tx, realmId: number, id: number): Promise<MessageRow | undefined> {
  return tx.db.selectFrom("messages").selectAll().where("id", "=", id).where("realm_id", "=", realmId).executeTakeFirst();
}

export async function getMessagesByIds(tx: Tx, ids: readonly number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return tx.db.selectFrom("messages").selectAll().where("id", "in", ids).orderBy("id").execute();
}

/** The user's flags for each of the messages they have a row for. */
export async function getUserMessageFlags(tx: Tx, userId: number, messageIds: readonly number[]): Promise<Map<number, number>> {
  if (messageIds.length === 0) return new Map();
  const rows = await tx.db
    .selectFrom("user_messages")
    .select(["message_id", "flags"])
    .where("user_id", "=", userId)
    .where("message_id", "in", messageIds)
    .execute();
  return new Map(rows.map((r) => [Number(r.message_id), r.flags]));
}

export async function getReactionsForMessages(tx: Tx, messageIds: readonly number[]) {
  if (messageIds.length === 0) return [];
  return tx.db
    .selectFrom("reactions")
    .select(["message_id", "user_id", "emoji_name", "emoji_code", "reaction_type"])
    .where("message_id", "in", messageIds)
    .orderBy("id")
    .execute();
}

export async function getSubmessagesForMessages(tx: Tx, messageIds: readonly number[]) {
  if (messageIds.length === 0) return [];
  return tx.db.selectFrom("submessages").selectAll().where("message_id", "in", messageIds).orderBy("id").execute();
}

export async function getEditsForMessages(tx: Tx, messageIds: readonly number[]) {
  if (messageIds.length === 0) return [];
  return tx.db.selectFrom("message_edits").selectAll().where("message_id", "in", messageIds).orderBy("id").execute();
}

/** Distinct senders of a channel topic (topic match is case-insensitive). */
export async function getTopicParticipantIds(tx: Tx, recipientId: number, topic: string): Promise<number[]> {
  const rows = await tx.db
    .selectFrom("messages")
    .select("sender_id")
    .distinct()
    .where("recipient_id", "=", recipientId)
    .where(sql<string>`lower(subject)`, "=", topic.toLowerCase())
    .execute();
  return rows.map((r) => r.sender_id);
}

/** Whether the channel already has a message in this topic. */
export async function topicExists(tx: Tx, recipientId: number, topic: string): Promise<boolean> {
  const row = await tx.db
    .selectFrom("messages")
    .select("id")
    .where("recipient_id", "=", recipientId)
    .where(sql<string>`lower(subject)`, "=", topic.toLowerCase())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function getAlertWordsForUsers(tx: Tx, userIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (userIds.length === 0) return out;
  const rows = await tx.db.selectFrom("alert_words").select(["user_id", "word"]).where("user_id", "in", userIds).execute();
  for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.word]);
  return out;
}

/** The oldest message of a recipient (a channel's first_message_id), or null when it has none. */
export async function getFirstMessageId(tx: Tx, recipientId: number): Promise<number | null> {
  const row = await tx.db.selectFrom("messages").select((eb) => eb.fn.min("id").as("id")).where("recipient_id", "=", recipientId).executeTakeFirst();
  return row?.id == null ? null : Number(row.id);
}
