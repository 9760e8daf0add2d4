/**
 * SQL for notifications waiting to be sent (migration 0018) and for the pushes a user's devices
 * show. Sending is claim, send, delete: `claimDueBatch` leases a user's due rows to one sender
 * (PostgreSQL: FOR UPDATE SKIP LOCKED, so concurrent claimers never take the same rows; SQLite runs
 * one transaction at a time), the sender sends outside any transaction, then deletes what it
 * claimed. A sender that dies leaves its lease to run out, and the rows are claimed again.
 */
import type { Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type PendingNotificationRow = Selectable<DB["pending_notifications"]>;
/**
 * "email", "push", "remove": notifications (actions/notifications/); "digest": a weekly digest email
 * (message_id holds the digest period, actions/notifications/digest.ts); "outgoing_webhook": a POST
 * to an outgoing-webhook bot (user_id the bot, trigger "mention" or "direct_message";
 * actions/outgoing-webhooks/queue.ts); "delete_user_messages": the messages a deactivated user sent,
 * deleted in batches (FL 459; user_id the sender, message_id the kinds of conversation, trigger the
 * acting administrator; actions/messages/user-message-deletion.ts). The same lease serves all; each worker
 * claims its kinds.
 */
export type PendingKind = "email" | "push" | "remove" | "digest" | "outgoing_webhook" | "delete_user_messages";
export const NOTIFICATION_KINDS: readonly PendingKind[] = ["email", "push", "remove", "digest"];
/** The trigger of digest rows. */
export const DIGEST_TRIGGER = "digest";

export interface ClaimOptions {
  /** The kinds this claimer sends (default: the notification kinds). */
  kinds?: readonly PendingKind[];
  /** At most this many rows of the batch. */
  limit?: number;
}

export interface NewPendingNotification {
  user_id: number;
  message_id: number;
  kind: PendingKind;
  trigger: string;
  mentioned_group_id: number | null;
  due_at: number;
}

/** Adds rows; a row for the same user, kind and message already waiting is kept as it is. */
export async function insertPendingNotifications(tx: Tx, rows: readonly NewPendingNotification[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.db
    .insertInto("pending_notifications")
    .values([...rows])
    .onConflict((oc) => oc.columns(["user_id", "kind", "message_id"]).doNothing())
    .execute();
}

/** The due time of the user's open email batch (rows not yet claimed), or null when none is open. */
export async function openEmailBatchDue(tx: Tx, userId: number): Promise<number | null> {
  const row = await tx.db
    .selectFrom("pending_notifications")
    .select((eb) => eb.fn.min("due_at").as("due"))
    .where("user_id", "=", userId)
    .where("kind", "=", "email")
    .where("claimed_until", "is", null)
    .executeTakeFirst();
  return row?.due == null ? null : Number(row.due);
}

/** When the next row falls due or a lease runs out (UTC seconds), or null when nothing waits. */
export async function nextPendingTime(tx: Tx, kinds: readonly PendingKind[] = NOTIFICATION_KINDS): Promise<number | null> {
  const row = await tx.db
    .selectFrom("pending_notifications")
    .select((eb) => eb.fn.min(eb.fn.coalesce("claimed_until", "due_at")).as("next"))
    .where("kind", "in", [...kinds])
    .executeTakeFirst();
  return row?.next == null ? null : Number(row.next);
}

/**
 * Leases to `token` until `leaseUntil` every due, unleased row of one user and kind: the user of
 * the earliest such row. Returns the rows (empty when nothing is due or others hold it all).
 */
export async function claimDueBatch(tx: Tx, now: number, leaseUntil: number, token: string, opts: ClaimOptions = {}): Promise<PendingNotificationRow[]> {
  const kinds = [...(opts.kinds ?? NOTIFICATION_KINDS)];
  const due = (q: ReturnType<typeof base>) =>
    q.where("kind", "in", kinds).where("due_at", "<=", now).where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<=", now)]));
  const base = () => tx.db.selectFrom("pending_notifications").selectAll();
  let first = due(base()).orderBy("due_at").orderBy("id").limit(1);
  if (tx.dialect === "postgres") first = first.forUpdate().skipLocked();
  const head = await first.executeTakeFirst();
  if (!head) return [];
  let batch = due(base()).where("user_id", "=", head.user_id).where("kind", "=", head.kind).orderBy("message_id");
  if (opts.limit !== undefined) batch = batch.limit(opts.limit);
  if (tx.dialect === "postgres") batch = batch.forUpdate().skipLocked();
  const rows = await batch.execute();
  await tx.db
    .updateTable("pending_notifications")
    .set({ claimed_until: leaseUntil, claim_token: token })
    .where("id", "in", rows.map((r) => r.id))
    .execute();
  return rows;
}

/** Deletes the rows a sender claimed, if its lease still holds them (nobody took them over). */
export async function deleteClaimed(tx: Tx, ids: readonly number[], token: string): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await tx.db.deleteFrom("pending_notifications").where("id", "in", [...ids]).where("claim_token", "=", token).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Gives claimed rows back, due at once and with no attempt counted: work left for a later turn. */
export async function releaseClaimed(tx: Tx, ids: readonly number[], token: string): Promise<void> {
  if (ids.length === 0) return;
  await tx.db
    .updateTable("pending_notifications")
    .set({ claimed_until: null, claim_token: null })
    .where("id", "in", [...ids])
    .where("claim_token", "=", token)
    .execute();
}

/** Gives claimed rows back to be tried again at `dueAt`, counting the failed attempt. */
export async function retryClaimed(tx: Tx, ids: readonly number[], token: string, dueAt: number): Promise<void> {
  if (ids.length === 0) return;
  await tx.db
    .updateTable("pending_notifications")
    .set((eb) => ({ claimed_until: null, claim_token: null, due_at: dueAt, attempts: eb("attempts", "+", 1) }))
    .where("id", "in", [...ids])
    .where("claim_token", "=", token)
    .execute();
}

/** Drops a user's waiting rows of some kinds (all of them, or those of the given messages). */
export async function deletePendingForUser(tx: Tx, userId: number, kinds: readonly PendingKind[], messageIds?: readonly number[]): Promise<void> {
  if (messageIds !== undefined && messageIds.length === 0) return;
  let q = tx.db.deleteFrom("pending_notifications").where("user_id", "=", userId).where("kind", "in", [...kinds]);
  if (messageIds !== undefined) q = q.where("message_id", "in", [...messageIds]);
  await q.execute();
}

/** Drops a user's waiting rows of one kind raised by these triggers. */
export async function deletePendingWithTriggers(tx: Tx, userId: number, kind: PendingKind, triggers: readonly string[]): Promise<void> {
  await tx.db.deleteFrom("pending_notifications").where("user_id", "=", userId).where("kind", "=", kind).where("trigger", "in", [...triggers]).execute();
}

export async function addActivePushes(tx: Tx, userId: number, messageIds: readonly number[]): Promise<void> {
  if (messageIds.length === 0) return;
  await tx.db
    .insertInto("active_push_notifications")
    .values(messageIds.map((message_id) => ({ user_id: userId, message_id })))
    .onConflict((oc) => oc.columns(["user_id", "message_id"]).doNothing())
    .execute();
}

/** Removes and returns the user's shown pushes among `messageIds` (all of them when undefined). */
export async function takeActivePushes(tx: Tx, userId: number, messageIds?: readonly number[]): Promise<number[]> {
  if (messageIds !== undefined && messageIds.length === 0) return [];
  let q = tx.db.deleteFrom("active_push_notifications").where("user_id", "=", userId);
  if (messageIds !== undefined) q = q.where("message_id", "in", [...messageIds]);
  const rows = await q.returning("message_id").execute();
  return rows.map((r) => Number(r.message_id)).sort((a, b) => a - b);
}
