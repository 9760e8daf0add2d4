/**
 * Organizations, accounts, groups and the per-user/per-realm data around them.
 * Timestamps are UTC seconds; JSON columns are text.
 */
import type { Migration } from "./helpers.js";
import { bool, exprIndex, groupRef, index, withId } from "./helpers.js";

/** Realm-level group settings (zulip-facts section g): each points at a user_groups row. */
const REALM_GROUP_SETTINGS = [
  "can_access_all_users_group_id",
  "can_add_custom_emoji_group_id",
  "can_add_subscribers_group_id",
  "can_create_bots_group_id",
  "can_create_groups_id",
  "can_create_private_channel_group_id",
  "can_create_public_channel_group_id",
  "can_create_web_public_channel_group_id",
  "can_create_write_only_bots_group_id",
  "can_delete_any_message_group_id",
  "can_delete_own_message_group_id",
  "can_invite_users_group_id",
  "can_manage_all_groups_id",
  "can_manage_billing_group_id",
  "can_mention_many_users_group_id",
  "can_move_messages_between_channels_group_id",
  "can_move_messages_between_topics_group_id",
  "can_resolve_topics_group_id",
  "can_set_delete_message_policy_group_id",
  "can_set_topics_policy_group_id",
  "can_summarize_topics_group_id",
  "create_multiuse_invite_group_id",
  "direct_message_initiator_group_id",
  "direct_message_permission_group_id",
];

export const realmsUsers: Migration = {
  async up(db, d) {
    let realms = withId(db.schema.createTable("realms"), d)
      .addColumn("string_id", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .addColumn("org_type", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("waiting_period_threshold", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("message_content_edit_limit_seconds", "integer")
      .addColumn("message_content_delete_limit_seconds", "integer")
      .addColumn("move_messages_within_stream_limit_seconds", "integer")
      .addColumn("move_messages_between_streams_limit_seconds", "integer")
      // null = unlimited (Zulip's -1 / "unlimited")
      .addColumn("message_retention_days", "integer")
      .addColumn("topics_policy", "text", (c) => c.notNull().defaultTo("allow_empty_topic"))
      .addColumn("max_invites", "integer")
      // Long tail of realm settings that no query filters on, as JSON overrides of code defaults.
      .addColumn("settings", "text", (c) => c.notNull().defaultTo("{}"));
    for (const [name, dflt] of [
      ["deactivated", false],
      ["invite_required", true],
      ["emails_restricted_to_domains", false],
      ["allow_edit_history", true],
      ["allow_message_editing", true],
      ["enable_spectator_access", false],
      ["password_auth_enabled", true],
    ] as const) {
      realms = bool(realms, d, name, dflt);
    }
    await realms.execute();

    let users = withId(db.schema.createTable("users"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("delivery_email", "text", (c) => c.notNull())
      .addColumn("full_name", "text", (c) => c.notNull())
      .addColumn("role", "integer", (c) => c.notNull().defaultTo(400))
      .addColumn("bot_type", "integer")
      .addColumn("bot_owner_id", "integer", (c) => c.references("users.id"))
      .addColumn("date_joined", "bigint", (c) => c.notNull())
      .addColumn("last_login", "bigint")
      .addColumn("timezone", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("avatar_source", "text", (c) => c.notNull().defaultTo("G"))
      .addColumn("avatar_version", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("api_key", "text", (c) => c.notNull().unique())
      .addColumn("password_hash", "text")
      .addColumn("default_sending_channel_id", "integer")
      .addColumn("default_events_register_channel_id", "integer")
      // Personal settings (spec 4.2 list) as JSON overrides of the realm defaults at creation.
      .addColumn("settings", "text", (c) => c.notNull().defaultTo("{}"));
    for (const [name, dflt] of [
      ["is_active", true],
      ["is_bot", false],
      ["is_mirror_dummy", false],
      ["is_imported_stub", false],
      ["is_deleted", false],
      ["can_change_user_emails", false],
      ["is_billing_admin", false],
      ["default_all_public_streams", false],
    ] as const) {
      users = bool(users, d, name, dflt);
    }
    await users.execute();
    await exprIndex(db, "users_realm_delivery_email", "users", "realm_id, lower(delivery_email)", true);
    await exprIndex(db, "users_realm_email", "users", "realm_id, lower(email)");

    let groups = withId(db.schema.createTable("user_groups"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      // null name = an anonymous group holding a group-setting value {direct_members, direct_subgroups}
      .addColumn("name", "text")
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .addColumn("creator_id", "integer", (c) => c.references("users.id"));
    groups = bool(bool(groups, d, "is_system_group", false), d, "deactivated", false);
    for (const s of [
      "can_add_members_group_id",
      "can_join_group_id",
      "can_leave_group_id",
      "can_manage_group_id",
      "can_mention_group_id",
      "can_remove_members_group_id",
    ]) {
      groups = groupRef(groups, s);
    }
    await groups.execute();
    await index(db, "user_groups_realm_name", "user_groups", ["realm_id", "name"], true);

    // Added after user_groups exists; SQLite allows one ADD COLUMN per ALTER TABLE statement.
    for (const s of REALM_GROUP_SETTINGS) {
      await db.schema
        .alterTable("realms")
        .addColumn(s, "integer", (c) => c.references("user_groups.id"))
        .execute();
    }

    await db.schema
      .createTable("user_group_members")
      .addColumn("group_id", "integer", (c) => c.notNull().references("user_groups.id"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addPrimaryKeyConstraint("user_group_members_pk", ["group_id", "user_id"])
      .execute();
    await index(db, "user_group_members_user", "user_group_members", ["user_id"]);
    await db.schema
      .createTable("user_group_subgroups")
      .addColumn("supergroup_id", "integer", (c) => c.notNull().references("user_groups.id"))
      .addColumn("subgroup_id", "integer", (c) => c.notNull().references("user_groups.id"))
      .addPrimaryKeyConstraint("user_group_subgroups_pk", ["supergroup_id", "subgroup_id"])
      .execute();
    await index(db, "user_group_subgroups_sub", "user_group_subgroups", ["subgroup_id"]);

    await db.schema
      .createTable("realm_user_defaults")
      .addColumn("realm_id", "integer", (c) => c.primaryKey().references("realms.id"))
      .addColumn("settings", "text", (c) => c.notNull().defaultTo("{}"))
      .execute();

    await db.schema
      .createTable("sessions")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable("audit_log"), d, true)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("acting_user_id", "integer", (c) => c.references("users.id"))
      .addColumn("modified_user_id", "integer", (c) => c.references("users.id"))
      .addColumn("modified_channel_id", "integer")
      .addColumn("modified_group_id", "integer")
      .addColumn("event_type", "text", (c) => c.notNull())
      .addColumn("event_time", "bigint", (c) => c.notNull())
      .addColumn("extra_data", "text", (c) => c.notNull().defaultTo("{}"))
      .execute();
    await index(db, "audit_log_realm_time", "audit_log", ["realm_id", "event_time"]);
  },
};
