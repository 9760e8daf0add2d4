/**
 * Organization data administrators manage (profile fields, linkifiers, custom emoji, invitations)
 * and per-user data (status, alert words, muted users, presence, drafts, uploads, push devices).
 */
import type { Migration } from "./helpers.js";
import { bool, exprIndex, index, withId } from "./helpers.js";

export const orgData: Migration = {
  async up(db, d) {
    let fields = withId(db.schema.createTable("custom_profile_fields"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("hint", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("field_type", "integer", (c) => c.notNull())
      .addColumn("field_data", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("order", "integer", (c) => c.notNull().defaultTo(0));
    fields = bool(fields, d, "display_in_profile_summary", false);
    fields = bool(fields, d, "required", false);
    fields = bool(fields, d, "editable_by_user", true);
    await fields.execute();
    await exprIndex(db, "custom_profile_fields_name", "custom_profile_fields", "realm_id, lower(name)", true);

    await withId(db.schema.createTable("custom_profile_field_values"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("field_id", "integer", (c) => c.notNull().references("custom_profile_fields.id"))
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("rendered_value", "text")
      .execute();
    await index(db, "custom_profile_field_values_unique", "custom_profile_field_values", ["user_id", "field_id"], true);

    await withId(db.schema.createTable("linkifiers"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("pattern", "text", (c) => c.notNull())
      .addColumn("url_template", "text", (c) => c.notNull())
      .addColumn("example_input", "text")
      .addColumn("reverse_template", "text")
      .addColumn("alternative_url_templates", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("order", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await index(db, "linkifiers_realm", "linkifiers", ["realm_id", "order"]);

    await bool(
      bool(
        withId(db.schema.createTable("realm_emoji"), d)
          .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("author_id", "integer", (c) => c.references("users.id"))
          .addColumn("file_name", "text", (c) => c.notNull()),
        d,
        "is_animated",
        false,
      ),
      d,
      "deactivated",
      false,
    ).execute();
    await index(db, "realm_emoji_name", "realm_emoji", ["realm_id", "name"]);

    // Email invitations (email set) and reusable invite links (is_multiuse).
    let invites = withId(db.schema.createTable("invitations"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("email", "text")
      .addColumn("referred_by_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("invited_as", "integer", (c) => c.notNull().defaultTo(400))
      .addColumn("invited_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint")
      // 0 active, 1 used, 2 revoked
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("channel_ids", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("group_ids", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("welcome_message_custom_text", "text")
      .addColumn("confirmation_key", "text", (c) => c.notNull().unique());
    invites = bool(invites, d, "is_multiuse", false);
    invites = bool(invites, d, "include_realm_default_subscriptions", false);
    invites = bool(invites, d, "notify_referrer_on_join", true);
    await invites.execute();
    await index(db, "invitations_realm", "invitations", ["realm_id", "status"]);

    await db.schema
      .createTable("user_status")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id"))
      .addColumn("status_text", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("emoji_name", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("emoji_code", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("reaction_type", "text", (c) => c.notNull().defaultTo("unicode_emoji"))
      .addColumn("timestamp", "bigint", (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable("alert_words"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("word", "text", (c) => c.notNull())
      .execute();
    await exprIndex(db, "alert_words_unique", "alert_words", "user_id, lower(word)", true);

    await db.schema
      .createTable("muted_users")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("muted_user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("date_muted", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("muted_users_pk", ["user_id", "muted_user_id"])
      .execute();

    await db.schema
      .createTable("presence")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id"))
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("last_active_time", "bigint")
      .addColumn("last_connected_time", "bigint")
      .addColumn("last_update_id", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
    await index(db, "presence_realm", "presence", ["realm_id", "last_update_id"]);

    await withId(db.schema.createTable("drafts"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("to", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("topic", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("timestamp", "bigint", (c) => c.notNull())
      .execute();
    await index(db, "drafts_user", "drafts", ["user_id"]);

    await withId(db.schema.createTable("attachments"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("owner_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("path_id", "text", (c) => c.notNull().unique())
      .addColumn("file_name", "text", (c) => c.notNull())
      .addColumn("size", "bigint", (c) => c.notNull())
      .addColumn("content_type", "text")
      .addColumn("create_time", "bigint", (c) => c.notNull())
      .execute();
    await index(db, "attachments_owner", "attachments", ["owner_id"]);
    await db.schema
      .createTable("attachment_messages")
      .addColumn("attachment_id", "integer", (c) => c.notNull().references("attachments.id"))
      .addColumn("message_id", "bigint", (c) => c.notNull().references("messages.id"))
      .addPrimaryKeyConstraint("attachment_messages_pk", ["attachment_id", "message_id"])
      .execute();
    await index(db, "attachment_messages_message", "attachment_messages", ["message_id"]);

    await withId(db.schema.createTable("push_devices"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      // "apns" | "fcm" | "e2ee"
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("token", "text", (c) => c.notNull())
      .addColumn("app_id", "text")
      .addColumn("public_key", "text")
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .execute();
    await index(db, "push_devices_user", "push_devices", ["user_id", "kind", "token"], true);
  },
};
