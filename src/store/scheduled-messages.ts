/**
 * SQL for the schedule of messages the server sends later (migration 0012): scheduled messages and
 * reminders, their claim by the delivering process, and the uploads a pending one links.
 */
import type { Insertable, Selectable, Updateable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type ScheduledMessageRow = Selectable<DB["scheduled_messages"]>;
export type NewScheduledMessage = Insertable<DB["scheduled_messages"]>;

/** Zulip's ScheduledMessage.delivery_type values. */
export const DELIVERY_TYPE = { SEND_LATER: 1, REMIND: 2 } as const;
export type DeliveryType = (typeof DELIVERY_TYPE)[keyof typeof DELIVERY_TYPE];

export async function insertScheduledMessage(tx: Tx, row: NewScheduledMessage): Promise<ScheduledMessageRow> {
  return tx.db.insertInto("scheduled_messages").values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * One of the sender's own rows of this kind. `lock` holds it (PostgreSQL row lock) until the
 * transaction ends, so an edit waits for a delivery in progress and then sees it delivered.
 */
export async function getOwnScheduledMessage(
  tx: Tx,
  senderId: number,
  deliveryType: DeliveryType,
  id: number,
  opts: { lock?: boolean } = {},
): Promise<ScheduledMessageRow | undefined> {
  let query = tx.db
    .selectFrom("scheduled_messages")
    .selectAll()
    .where("id", "=", id)
    .where("sender_id", "=", senderId)
    .where("delivery_type", "=", deliveryType);
  if (opts.lock && tx.dialect === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The sender's undelivered rows of this kind (failed ones included), soonest first. */
export async function listUndelivered(tx: Tx, senderId: number, deliveryType: DeliveryType): Promise<ScheduledMessageRow[]> {
  return tx.db
    .selectFrom("scheduled_messages")
    .selectAll()
    .where("sender_id", "=", senderId)
    .where("delivery_type", "=", deliveryType)
    .where("delivered", "=", false)
    .orderBy("scheduled_timestamp")
    .orderBy("id")
    .execute();
}

export async function updateScheduledMessage(tx: Tx, id: number, changes: Updateable<DB["scheduled_messages"]>): Promise<ScheduledMessageRow> {
  return tx.db.updateTable("scheduled_messages").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteScheduledMessage(tx: Tx, id: number): Promise<void> {
  await tx.db.deleteFrom("scheduled_message_attachments").where("scheduled_message_id", "=", id).execute();
  await tx.db.deleteFrom("scheduled_messages").where("id", "=", id).execute();
}

/** When the next undelivered, unfailed row is due (UTC seconds), or null when none is waiting. */
export async function nextDueTime(tx: Tx): Promise<number | null> {
  const row = await tx.db
    .selectFrom("scheduled_messages")
    .select((eb) => eb.fn.min("scheduled_timestamp").as("due"))
    .where("delivered", "=", false)
    .where("failed", "=", false)
    .executeTakeFirst();
  return row?.due === null || row?.due === undefined ? null : Number(row.due);
}

/**
 * Takes the earliest row due at `now` that nobody has delivered or failed, for this transaction
 * alone: on PostgreSQL the row stays locked until it ends and other processes skip it (SKIP
 * LOCKED), so two processes never work on one row; once this transaction commits it as delivered,
 * their next look no longer finds it. SQLite runs one transaction at a time.
 */
export async function claimNextDue(tx: Tx, now: number): Promise<ScheduledMessageRow | undefined> {
  let query = tx.db
    .selectFrom("scheduled_messages")
    .selectAll()
    .where("delivered", "=", false)
    .where("failed", "=", false)
    .where("scheduled_timestamp", "<=", now)
    .orderBy("scheduled_timestamp")
    .orderBy("id")
    .limit(1);
  if (tx.dialect === "postgres") query = query.forUpdate().skipLocked();
  return query.executeTakeFirst();
}

/** The row again, held for this transaction, if it is still waiting (neither delivered nor failed). */
export async function lockWaiting(tx: Tx, id: number): Promise<ScheduledMessageRow | undefined> {
  let query = tx.db.selectFrom("scheduled_messages").selectAll().where("id", "=", id).where("delivered", "=", false).where("failed", "=", false);
  if (tx.dialect === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Marks a claimed row delivered, only if it still is waiting: the claim is atomic on both stores
 * (one UPDATE with the condition), so a row is delivered at most once. Returns whether it was.
 */
export async function markDelivered(tx: Tx, id: number, messageId: number): Promise<boolean> {
  const result = await tx.db
    .updateTable("scheduled_messages")
    .set({ delivered: true, delivered_message_id: messageId })
    .where("id", "=", id)
    .where("delivered", "=", false)
    .where("failed", "=", false)
    .executeTakeFirst();
  await tx.db.deleteFrom("scheduled_message_attachments").where("scheduled_message_id", "=", id).execute();
  return Number(result.numUpdatedRows) === 1;
}

/** Replaces the uploads a pending scheduled message links. */
export async function setScheduledAttachments(tx: Tx, scheduledMessageId: number, attachmentIds: readonly number[]): Promise<void> {
  await tx.db.deleteFrom("scheduled_message_attachments").where("scheduled_message_id", "=", scheduledMessageId).execute();
  if (attachmentIds.length === 0) return;
  await tx.db
    .insertInto("scheduled_message_attachments")
    .values([...new Set(attachmentIds)].map((attachment_id) => ({ scheduled_message_id: scheduledMessageId, attachment_id })))
    .execute();
}
