/**
 * The durable schedule of messages the server sends later (Zulip's ScheduledMessage): scheduled
 * messages (delivery_type 1, Zulip's SEND_LATER; FL 173-184) and message reminders (delivery_type
 * 2, REMIND; FL 381-415). A row stays after delivery, marked `delivered` with the id of the message
 * it became, as in Zulip; an attempt the server refused leaves it `failed` with the reason.
 *
 * The recipient is kept as the request named it (`recipient_type` "stream" with `channel_id`, or
 * "private" with `to_user_ids`, a JSON list of the other participants, or the sender alone), not as
 * a recipient row: delivery resolves it again through the send path, as Zulip's delivery re-checks
 * the message, so it stays right however conversations are stored.
 *
 * scheduled_message_attachments: uploads a pending scheduled message links (Zulip's
 * Attachment.scheduled_messages), which the unclaimed-upload cleanup must leave alone.
 */
import type { Migration } from "./helpers.js";
import { bool, index, withId } from "./helpers.js";

export const scheduledMessages: Migration = {
  async up(db, d) {
    let t = withId(db.schema.createTable("scheduled_messages"), d, true)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("sender_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("delivery_type", "integer", (c) => c.notNull())
      // "stream" | "private"
      .addColumn("recipient_type", "text", (c) => c.notNull())
      .addColumn("channel_id", "integer", (c) => c.references("channels.id"))
      .addColumn("to_user_ids", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("topic", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("rendered_content", "text", (c) => c.notNull())
      .addColumn("sending_client", "text", (c) => c.notNull())
      .addColumn("scheduled_timestamp", "bigint", (c) => c.notNull());
    t = bool(t, d, "read_by_sender", false);
    t = bool(t, d, "delivered", false);
    t = bool(t, d, "failed", false);
    await t
      .addColumn("failure_message", "text")
      // Not a foreign key: the message may be deleted later, and the row keeps the id it had.
      .addColumn("delivered_message_id", "bigint")
      .addColumn("reminder_target_message_id", "bigint")
      .addColumn("reminder_note", "text")
      .execute();
    // The scheduler's question: what is due next, among rows still to deliver.
    await index(db, "scheduled_messages_due", "scheduled_messages", ["delivered", "failed", "scheduled_timestamp"]);
    await index(db, "scheduled_messages_sender", "scheduled_messages", ["sender_id", "delivery_type"]);

    await db.schema
      .createTable("scheduled_message_attachments")
      .addColumn("scheduled_message_id", "bigint", (c) => c.notNull().references("scheduled_messages.id"))
      .addColumn("attachment_id", "integer", (c) => c.notNull().references("attachments.id"))
      .addPrimaryKeyConstraint("scheduled_message_attachments_pk", ["scheduled_message_id", "attachment_id"])
      .execute();
    await index(db, "scheduled_message_attachments_attachment", "scheduled_message_attachments", ["attachment_id"]);
  },
};
