/**
 * SQL for changing existing messages: content edits, topic/channel moves with their edit-history
 * rows, the subscription sets a move consults, and deleting messages with everything hanging off
 * them. Callers keep the SQLite full-text index in step with moves through reindexMessage.
 */
import { sql } from "kysely";
import type { AttachmentRow } from "./attachments.js";
import type { Tx } from "./db.js";
import { unindexMessage } from "./messages.js";
import type { DB } from "./schema.js";
import type { MessageRow } from "./types.js";

export type NewMessageEdit = Omit<DB["message_edits"], "id">;

/** The message, locked against concurrent edits on PostgreSQL (SQLite serialises writers anyway). */
export async function getMessageForUpdate(tx: Tx, realmId: number, id: number): Promise<MessageRow | undefined> {
  let q = tx.db.selectFrom("messages").selectAll().where("id", "=", id).where("realm_id", "=", realmId);
  if (tx.dialect === "postgres") q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function insertMessageEdits(tx: Tx, rows: readonly NewMessageEdit[]): Promise<void> {
  if (rows.length > 0) await tx.db.insertInto("message_edits").values([...rows]).execute();
}

export async function updateMessageContent(
  tx: Tx,
  id: number,
  changes: Pick<MessageRow, "content" | "rendered_content" | "last_edit_time" | "has_attachment" | "has_image" | "has_link" | "is_me_message">,
): Promise<void> {
  await tx.db.updateTable("messages").set(changes).where("id", "=", id).execute();
}

/**
 * Moves messages to another recipient (channel) and, when `subject` is given, topic; `movedAt`
 * becomes last_moved_time unless null (resolving a topic is not a move).
 */
export async function moveMessageRows(
  tx: Tx,
  ids: readonly number[],
  to: { recipientId: number; subject?: string },
  movedAt: number | null,
): Promise<void> {
  if (ids.length === 0) return;
  const set: { recipient_id: number; subject?: string; last_moved_time?: number } = { recipient_id: to.recipientId };
  if (to.subject !== undefined) set.subject = to.subject;
  if (movedAt !== null) set.last_moved_time = movedAt;
  await tx.db.updateTable("messages").set(set).where("id", "in", ids).execute();
}

/**
 * Messages of a channel topic (case-insensitive), oldest first. `fromId` keeps ids at or after
 * it; `withRowFor` keeps only messages that user has a user_messages row for. `newest` asks for
 * only the newest n instead, newest first, locked on PostgreSQL (a batch about to be deleted).
 */
export async function getTopicMessages(
  tx: Tx,
  recipientId: number,
  topic: string,
  opts: { fromId?: number; withRowFor?: number; newest?: number } = {},
): Promise<MessageRow[]> {
  let q = tx.db
    .selectFrom("messages")
    .selectAll("messages")
    .where("messages.recipient_id", "=", recipientId)
    .where(sql<string>`lower(messages.subject)`, "=", topic.toLowerCase());
  if (opts.fromId !== undefined) q = q.where("messages.id", ">=", opts.fromId);
  if (opts.withRowFor !== undefined) {
    const userId = opts.withRowFor;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom("user_messages")
          .select("user_messages.message_id")
          .whereRef("user_messages.message_id", "=", "messages.id")
          .where("user_messages.user_id", "=", userId),
      ),
    );
  }
  if (opts.newest !== undefined) {
    q = q.orderBy("messages.id", "desc").limit(opts.newest);
    return (tx.dialect === "postgres" ? q.forUpdate() : q).execute();
  }
  return q.orderBy("messages.id").execute();
}

/** The newest message of a topic, if any. */
export async function getLastTopicMessage(tx: Tx, recipientId: number, topic: string): Promise<MessageRow | undefined> {
  return tx.db
    .selectFrom("messages")
    .selectAll()
    .where("recipient_id", "=", recipientId)
    .where(sql<string>`lower(subject)`, "=", topic.toLowerCase())
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Users subscribed to a recipient: every subscription ever (`everSubscribed`, active or not), or
 * only active subscriptions, deactivated users included.
 */
export async function getSubscriptionUserIds(tx: Tx, recipientId: number, which: "everSubscribed" | "active"): Promise<number[]> {
  let q = tx.db.selectFrom("subscriptions").select("user_id").where("recipient_id", "=", recipientId);
  if (which === "active") q = q.where("active", "=", true);
  return (await q.execute()).map((r) => r.user_id);
}

/** Deletes messages and everything that refers to them (reactions, edits, widgets, flags, uploads' links). */
export async function deleteMessageRows(tx: Tx, messages: readonly Pick<MessageRow, "id" | "subject" | "content">[]): Promise<void> {
  if (messages.length === 0) return;
  const ids = messages.map((m) => m.id);
  for (const table of ["reactions", "message_edits", "submessages", "user_messages", "attachment_messages"] as const) {
    await tx.db.deleteFrom(table).where("message_id", "in", ids).execute();
  }
  for (const m of messages) await unindexMessage(tx, m.id, m);
  await tx.db.deleteFrom("messages").where("id", "in", ids).execute();
}

/** Each user's visibility policy for a channel topic (case-insensitive), where they set one. */
export async function getTopicPolicies(tx: Tx, channelId: number, topic: string): Promise<Map<number, number>> {
  const rows = await tx.db
    .selectFrom("user_topics")
    .select(["user_id", "visibility_policy"])
    .where("channel_id", "=", channelId)
    .where(sql<string>`lower(topic_name)`, "=", topic.toLowerCase())
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.visibility_policy]));
}

/** The uploads a message links. */
export async function getAttachmentsLinkedTo(tx: Tx, messageId: number): Promise<AttachmentRow[]> {
  return tx.db
    .selectFrom("attachments")
    .innerJoin("attachment_messages", "attachment_messages.attachment_id", "attachments.id")
    .selectAll("attachments")
    .where("attachment_messages.message_id", "=", messageId)
    .orderBy("attachments.id")
    .execute();
}

export async function unlinkAttachments(tx: Tx, attachmentIds: readonly number[], messageId: number): Promise<void> {
  if (attachmentIds.length === 0) return;
  await tx.db.deleteFrom("attachment_messages").where("message_id", "=", messageId).where("attachment_id", "in", attachmentIds).execute();
}
