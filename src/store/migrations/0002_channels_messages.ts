/**
 * Channels, subscriptions, messages and everything hanging off a message. A "recipient" is Zulip's
 * addressee row: a user (1), a channel (2) or a direct-message group (3); messages point at one.
 */
import { sql } from "kysely";
import type { Migration } from "./helpers.js";
import { bool, exprIndex, groupRef, index, withId } from "./helpers.js";

const CHANNEL_GROUP_SETTINGS = [
  "can_add_subscribers_group_id",
  "can_administer_channel_group_id",
  "can_create_topic_group_id",
  "can_delete_any_message_group_id",
  "can_delete_own_message_group_id",
  "can_move_messages_out_of_channel_group_id",
  "can_move_messages_within_channel_group_id",
  "can_remove_subscribers_group_id",
  "can_resolve_topics_group_id",
  "can_send_message_group_id",
  "can_subscribe_group_id",
];

export const channelsMessages: Migration = {
  async up(db, d) {
    await bool(
      withId(db.schema.createTable("channel_folders"), d)
        .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("rendered_description", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("order", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("creator_id", "integer", (c) => c.references("users.id"))
        .addColumn("date_created", "bigint", (c) => c.notNull()),
      d,
      "is_archived",
      false,
    ).execute();
    await exprIndex(db, "channel_folders_realm_name", "channel_folders", "realm_id, lower(name)", true);

    await withId(db.schema.createTable("recipients"), d)
      .addColumn("type", "integer", (c) => c.notNull())
      .addColumn("type_id", "integer", (c) => c.notNull())
      .execute();
    await index(db, "recipients_type", "recipients", ["type", "type_id"], true);

    await withId(db.schema.createTable("direct_message_groups"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      // sorted member ids joined by ","; identifies the conversation
      .addColumn("member_key", "text", (c) => c.notNull())
      .addColumn("group_size", "integer", (c) => c.notNull())
      .execute();
    await index(db, "direct_message_groups_key", "direct_message_groups", ["realm_id", "member_key"], true);

    let channels = withId(db.schema.createTable("channels"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("rendered_description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .addColumn("creator_id", "integer", (c) => c.references("users.id"))
      .addColumn("recipient_id", "integer", (c) => c.references("recipients.id"))
      // null = realm default; -1 = unlimited
      .addColumn("message_retention_days", "integer")
      .addColumn("folder_id", "integer", (c) => c.references("channel_folders.id"))
      .addColumn("topics_policy", "text", (c) => c.notNull().defaultTo("inherit"))
      .addColumn("first_message_id", "bigint");
    for (const [name, dflt] of [
      ["invite_only", false],
      ["is_web_public", false],
      ["history_public_to_subscribers", true],
      ["deactivated", false],
      ["is_recently_active", true],
    ] as const) {
      channels = bool(channels, d, name, dflt);
    }
    for (const s of CHANNEL_GROUP_SETTINGS) channels = groupRef(channels, s);
    await channels.execute();
    await exprIndex(db, "channels_realm_name", "channels", "realm_id, lower(name)", true);

    await db.schema
      .createTable("default_channels")
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("channel_id", "integer", (c) => c.notNull().references("channels.id"))
      .addPrimaryKeyConstraint("default_channels_pk", ["realm_id", "channel_id"])
      .execute();

    let subs = withId(db.schema.createTable("subscriptions"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("recipient_id", "integer", (c) => c.notNull().references("recipients.id"))
      .addColumn("color", "text", (c) => c.notNull().defaultTo("#c2c2c2"));
    subs = bool(subs, d, "active", true);
    subs = bool(subs, d, "is_user_active", true);
    subs = bool(subs, d, "pin_to_top", false);
    subs = bool(subs, d, "is_muted", false);
    // null = follow the user's global setting
    for (const name of [
      "desktop_notifications",
      "audible_notifications",
      "push_notifications",
      "email_notifications",
      "wildcard_mentions_notify",
    ]) {
      subs = bool(subs, d, name, null);
    }
    await subs.execute();
    await index(db, "subscriptions_user_recipient", "subscriptions", ["user_id", "recipient_id"], true);
    await index(db, "subscriptions_recipient", "subscriptions", ["recipient_id", "active"]);

    let messages = withId(db.schema.createTable("messages"), d, true)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("sender_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("recipient_id", "integer", (c) => c.notNull().references("recipients.id"))
      .addColumn("type", "integer", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("rendered_content", "text", (c) => c.notNull())
      .addColumn("date_sent", "bigint", (c) => c.notNull())
      .addColumn("sending_client", "text", (c) => c.notNull().defaultTo("API"))
      .addColumn("last_edit_time", "bigint")
      .addColumn("last_moved_time", "bigint");
    for (const name of ["has_attachment", "has_image", "has_link", "is_me_message"]) {
      messages = bool(messages, d, name, false);
    }
    await messages.execute();
    // Channel+topic narrows: topic match is case-insensitive (zulip-facts section d).
    await exprIndex(db, "messages_recipient_topic", "messages", "recipient_id, lower(subject), id");
    await index(db, "messages_recipient_id", "messages", ["recipient_id", "id"]);
    await index(db, "messages_sender_id", "messages", ["sender_id", "id"]);
    await index(db, "messages_realm_id", "messages", ["realm_id", "id"]);
    if (d === "sqlite") {
      // External-content FTS5 index keyed by message id; the store keeps it in step on write.
      await sql`CREATE VIRTUAL TABLE messages_fts USING fts5(subject, content, content='', tokenize='porter unicode61')`.execute(db);
    } else {
      await sql`ALTER TABLE messages ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', subject || ' ' || content)) STORED`.execute(db);
      await sql`CREATE INDEX messages_search_tsv ON messages USING gin (search_tsv)`.execute(db);
    }

    // Zulip's UserMessage: one row per (recipient user, message), flags as a bitmask.
    await db.schema
      .createTable("user_messages")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("message_id", "bigint", (c) => c.notNull().references("messages.id"))
      .addColumn("flags", "integer", (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("user_messages_pk", ["user_id", "message_id"])
      .execute();
    await index(db, "user_messages_message", "user_messages", ["message_id"]);
    // Unread lookups (flag bit 0 = read) without scanning a user's whole history.
    await sql.raw("CREATE INDEX user_messages_unread ON user_messages (user_id, message_id) WHERE (flags & 1) = 0").execute(db);

    await withId(db.schema.createTable("reactions"), d)
      .addColumn("message_id", "bigint", (c) => c.notNull().references("messages.id"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("emoji_name", "text", (c) => c.notNull())
      .addColumn("emoji_code", "text", (c) => c.notNull())
      .addColumn("reaction_type", "text", (c) => c.notNull())
      .execute();
    await index(db, "reactions_unique", "reactions", ["message_id", "user_id", "reaction_type", "emoji_code"], true);

    await withId(db.schema.createTable("message_edits"), d, true)
      .addColumn("message_id", "bigint", (c) => c.notNull().references("messages.id"))
      .addColumn("user_id", "integer", (c) => c.references("users.id"))
      .addColumn("timestamp", "bigint", (c) => c.notNull())
      .addColumn("prev_content", "text")
      .addColumn("prev_rendered_content", "text")
      .addColumn("prev_topic", "text")
      .addColumn("topic", "text")
      .addColumn("prev_channel_id", "integer")
      .addColumn("channel_id", "integer")
      .execute();
    await index(db, "message_edits_message", "message_edits", ["message_id", "id"]);

    await withId(db.schema.createTable("submessages"), d)
      .addColumn("message_id", "bigint", (c) => c.notNull().references("messages.id"))
      .addColumn("sender_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("msg_type", "text", (c) => c.notNull())
      .addColumn("content", "text", (c) => c.notNull())
      .execute();
    await index(db, "submessages_message", "submessages", ["message_id"]);

    await withId(db.schema.createTable("user_topics"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("channel_id", "integer", (c) => c.notNull().references("channels.id"))
      .addColumn("topic_name", "text", (c) => c.notNull())
      .addColumn("visibility_policy", "integer", (c) => c.notNull())
      .addColumn("last_updated", "bigint", (c) => c.notNull())
      .execute();
    await exprIndex(db, "user_topics_unique", "user_topics", "user_id, channel_id, lower(topic_name)", true);
  },
};
