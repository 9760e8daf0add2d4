/**
 * Notifications waiting to be sent (issue 19; Zulip keeps the same in ScheduledMessageNotificationEmail
 * and its missedmessage queues): one row per recipient and message and kind, written in the
 * transaction that sends the message, so a crash or restart loses none.
 *
 * - `kind` "email": a missed-message email, due at the end of the user's batching period
 *   (every row of a user's batch has the batch's due time); "push": a mobile push for a new message;
 *   "remove": tells the devices to withdraw the push of a message read since (`message_id`).
 * - `trigger` is Zulip's NotificationTriggers value (policy/notifications.ts), `mentioned_group_id`
 *   the group mention behind it, if any.
 * - `claimed_until` / `claim_token`: a sender's lease (store/pending-notifications.ts). A process
 *   claims rows before sending and deletes them after; rows of a process that died are claimable
 *   again once the lease ends.
 * - `attempts`: failed sends so far (push retries with back-off).
 *
 * active_push_notifications: messages whose push a user's devices show, so that reading them sends
 * "remove" (Zulip's active_mobile_push_notification flag).
 *
 * No foreign keys to messages: a message may be deleted while its notification waits; the sender
 * drops what no longer exists.
 */
import type { Migration } from "./helpers.js";
import { index, withId } from "./helpers.js";

export const pendingNotifications: Migration = {
  async up(db, d) {
    await withId(db.schema.createTable("pending_notifications"), d, true)
      .addColumn("user_id", "integer", (c) => c.notNull())
      .addColumn("message_id", "bigint", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("trigger", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("mentioned_group_id", "integer")
      .addColumn("due_at", "bigint", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("claimed_until", "bigint")
      .addColumn("claim_token", "text")
      .execute();
    // The worker's question: what is due next, per kind; and a user's rows (batching, cancelling).
    await index(db, "pending_notifications_due", "pending_notifications", ["kind", "due_at"]);
    await index(db, "pending_notifications_user", "pending_notifications", ["user_id", "kind", "message_id"], true);

    await db.schema
      .createTable("active_push_notifications")
      .addColumn("user_id", "integer", (c) => c.notNull())
      .addColumn("message_id", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("active_push_notifications_pk", ["user_id", "message_id"])
      .execute();
  },
};
