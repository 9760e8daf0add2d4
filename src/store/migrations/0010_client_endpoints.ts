/**
 * Tables for the endpoints Zulip's official clients call at start-up (issue 15 item 4):
 * - client_devices: Zulip's Device (FL 468), a logged-in install of a mobile app, which also holds
 *   that install's E2EE push registration (push key, token ids, registration error);
 * - saved_snippets: Zulip's SavedSnippet (FL 297);
 * - bot_storage: Zulip's BotStorageData, a bot's key/value store. Keys are unbounded text, so the
 *   unique index is over a hash of the key (a PostgreSQL btree entry holds at most 2704 bytes);
 *   `size` keeps the key's and value's length in code points, Zulip's measure for the storage limit;
 * - channel_email_addresses: Zulip's ChannelEmailAddress, one token per (channel, creator, sender).
 *
 * push_devices loses its "e2ee" rows: they were registrations of the FL 406 protocol (a device's
 * X25519 key under a push_account_id), which FL 468 replaced with push keys on client devices; an
 * app that registered that way registers again on its next start.
 */
import type { Migration } from "./helpers.js";
import { index, withId } from "./helpers.js";

export const clientEndpoints: Migration = {
  async up(db, d) {
    await withId(db.schema.createTable("client_devices"), d, true)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      // Base64 of the key (its first byte names the cryptosystem), and the client's id for it.
      .addColumn("push_key", "text")
      .addColumn("push_key_id", "bigint")
      // Base64 of the 8-byte token ids (registered, and registration in progress).
      .addColumn("push_token_id", "text")
      .addColumn("pending_push_token_id", "text")
      .addColumn("push_token_last_updated_timestamp", "bigint")
      // "fcm" | "apns"
      .addColumn("push_token_kind", "text")
      .addColumn("push_registration_error_code", "text")
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .execute();
    await index(db, "client_devices_user", "client_devices", ["user_id"]);

    await withId(db.schema.createTable("saved_snippets"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .execute();
    await index(db, "saved_snippets_user", "saved_snippets", ["user_id"]);

    await withId(db.schema.createTable("bot_storage"), d)
      .addColumn("bot_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("key_hash", "text", (c) => c.notNull())
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("size", "bigint", (c) => c.notNull())
      .execute();
    await index(db, "bot_storage_key", "bot_storage", ["bot_id", "key_hash"], true);

    await withId(db.schema.createTable("channel_email_addresses"), d)
      .addColumn("channel_id", "integer", (c) => c.notNull().references("channels.id"))
      .addColumn("creator_id", "integer", (c) => c.notNull().references("users.id"))
      // Null: Zulip's email gateway bot, the default sender.
      .addColumn("sender_id", "integer", (c) => c.references("users.id"))
      .addColumn("email_token", "text", (c) => c.notNull().unique())
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .execute();
    await index(db, "channel_email_addresses_channel", "channel_email_addresses", ["channel_id", "creator_id"]);

    await db.deleteFrom("push_devices").where("kind", "=", "e2ee").execute();
  },
};
