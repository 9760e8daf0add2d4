/**
 * Which rows of which tables make up one realm's export (docs/EXPORT-FORMAT.md), as data: for each
 * table, the condition that picks the realm's rows, the columns holding ids of other tables (the
 * importer shifts them into the new realm's ids) and, for personal data, whose data a row is, so a
 * public export leaves it out and a consent export keeps only consenting users' (Zulip's
 * export-your-organization: public data, plus private data of users who allowed it, or of all).
 * Tables are listed parents first: the importer inserts them in this order.
 */
import { sql, type RawBuilder } from "kysely";
import type { Dialect } from "./db.js";
import type { DB } from "./schema.js";

export type ExportTableName = keyof DB;
export type ExportKind = "public" | "full_with_consent" | "full_without_consent";

/** What a scope condition may use: the realm, the kind of export, and whose private data it may hold. */
export interface ScopeContext {
  realmId: number;
  dialect: Dialect;
  kind: ExportKind;
  /** Users whose private data is exported: none (public), the consenting ones, or all. */
  privateUserIds: readonly number[];
}

export interface ExportTable {
  name: ExportTableName;
  /** The table has a serial `id`, shifted into a fresh range on import. */
  hasId: boolean;
  /** Keyset order of the batches (unique together). */
  order: string[];
  /** The realm's rows, as a condition on the table's columns. */
  scope(c: ScopeContext): RawBuilder<unknown>;
  /** Columns holding ids of other tables; a row whose non-null reference is not in the export is dropped. */
  refs?: Record<string, ExportTableName>;
  /** Like refs, but set after every table is in (cycles: a channel's recipient, a user's bot owner); missing ones become null. */
  later?: Record<string, ExportTableName>;
  /** Columns holding a reference that may point outside the export and then becomes null. */
  optionalRefs?: Record<string, ExportTableName>;
  /** Personal data: the column naming whose it is (public exports skip the table). */
  owner?: string;
  /**
   * The column holding a message id, first in `order`, when the table is read window by window of
   * exported message ids (actions/realm-export/table-batches.ts) through that column's index: a
   * keyset with the exported-messages subquery reruns that subquery (and for a composite key
   * sorts the table) at every batch.
   */
  byMessage?: "id" | "message_id";
}

const r = sql.ref;
/** `column IN (ids)` for a list of any length (bound as one parameter, as store/long-lists.ts does). */
export function inIds(column: string, ids: readonly number[], dialect: Dialect): RawBuilder<unknown> {
  if (ids.length === 0) return sql`1 = 0`;
  return dialect === "sqlite"
    ? sql`${r(column)} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`
    : sql`${r(column)} = ANY(${ids}::bigint[])`;
}

const realmRows = (c: ScopeContext) => sql`realm_id = ${c.realmId}`;
const realmUsers = (c: ScopeContext) => sql`(SELECT id FROM users WHERE realm_id = ${c.realmId})`;
const realmChannels = (c: ScopeContext) => sql`(SELECT id FROM channels WHERE realm_id = ${c.realmId})`;
const ofRealmUser = (column: string) => (c: ScopeContext) => sql`${r(column)} IN ${realmUsers(c)}`;
const ofRealmChannel = (column: string) => (c: ScopeContext) => sql`${r(column)} IN ${realmChannels(c)}`;

/**
 * The messages an export holds: all of them in a full export without consent; otherwise those of
 * public channels, and in a consent export also every message a consenting user received.
 */
export function exportedMessages(c: ScopeContext): RawBuilder<unknown> {
  if (c.kind === "full_without_consent") return sql`(SELECT id FROM messages WHERE realm_id = ${c.realmId})`;
  const publicOnes = sql`SELECT m.id FROM messages m JOIN channels ch ON ch.recipient_id = m.recipient_id
    WHERE m.realm_id = ${c.realmId} AND ch.invite_only = ${false}`;
  if (c.kind === "public") return sql`(${publicOnes})`;
  return sql`(${publicOnes} UNION SELECT message_id FROM user_messages WHERE ${inIds("user_id", c.privateUserIds, c.dialect)})`;
}
const ofExportedMessage = (c: ScopeContext) => sql`message_id IN ${exportedMessages(c)}`;

/**
 * The next `limit` exported messages' ids after `after`, in order: the same messages as
 * exportedMessages, tested row by row while walking messages' primary key from `after`, so one
 * window costs an index range scan, not the whole subquery.
 */
export function exportedMessageIdsAfter(c: ScopeContext, after: number, limit: number): RawBuilder<{ id: number }> {
  const publicOne = sql`EXISTS (SELECT 1 FROM channels ch WHERE ch.recipient_id = m.recipient_id AND ch.invite_only = ${false})`;
  const consented = sql`EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND ${inIds("um.user_id", c.privateUserIds, c.dialect)})`;
  const kept = c.kind === "full_without_consent" ? sql`1 = 1` : c.kind === "public" ? publicOne : sql`(${publicOne} OR ${consented})`;
  return sql<{ id: number }>`SELECT m.id FROM messages m WHERE m.realm_id = ${c.realmId} AND m.id > ${after} AND ${kept} ORDER BY m.id LIMIT ${limit}`;
}

const GROUP = "user_groups" as const;
const groupRefs = (...names: string[]) => Object.fromEntries(names.map((n) => [n, GROUP]));
const REALM_GROUP_SETTINGS = [
  "can_access_all_users_group_id", "can_add_custom_emoji_group_id", "can_add_subscribers_group_id", "can_create_bots_group_id",
  "can_create_groups_id", "can_create_private_channel_group_id", "can_create_public_channel_group_id",
  "can_create_web_public_channel_group_id", "can_create_write_only_bots_group_id", "can_delete_any_message_group_id",
  "can_delete_own_message_group_id", "can_invite_users_group_id", "can_manage_all_groups_id", "can_manage_billing_group_id",
  "can_mention_many_users_group_id", "can_move_messages_between_channels_group_id", "can_move_messages_between_topics_group_id",
  "can_resolve_topics_group_id", "can_set_delete_message_policy_group_id", "can_set_topics_policy_group_id",
  "can_summarize_topics_group_id", "create_multiuse_invite_group_id", "direct_message_initiator_group_id",
  "direct_message_permission_group_id",
];
const CHANNEL_GROUP_SETTINGS = [
  "can_add_subscribers_group_id", "can_administer_channel_group_id", "can_create_topic_group_id", "can_delete_any_message_group_id",
  "can_delete_own_message_group_id", "can_move_messages_out_of_channel_group_id", "can_move_messages_within_channel_group_id",
  "can_remove_subscribers_group_id", "can_resolve_topics_group_id", "can_send_message_group_id", "can_subscribe_group_id",
];
const USER_GROUP_SETTINGS = [
  "can_add_members_group_id", "can_join_group_id", "can_leave_group_id", "can_manage_group_id", "can_mention_group_id", "can_remove_members_group_id",
];

/**
 * Not exported, on purpose: sessions, push_devices and client_devices (credentials of one server's
 * devices), invitations (links of this server), audit_log, realm_exports, row_versions and
 * deployment (this server's bookkeeping), pending_notifications and active_push_notifications
 * (emails and pushes this server owes or showed for its devices), video_call_tokens (users' OAuth
 * tokens with a video call provider, issued for this server's redirect URL; users authorize again),
 * digest_runs and user_message_queues (when this server queued digests, and where its processes hold
 * event queues). A test checks every table is here or in EXPORT_TABLES.
 */
export const NOT_EXPORTED: ReadonlySet<string> = new Set([
  "sessions", "push_devices", "client_devices", "invitations", "audit_log", "realm_exports", "row_versions", "deployment",
  "pending_notifications", "active_push_notifications", "video_call_tokens", "digest_runs", "user_message_queues",
]);

export const EXPORT_TABLES: readonly ExportTable[] = [
  { name: "realms", hasId: true, order: ["id"], scope: (c) => sql`id = ${c.realmId}`, later: groupRefs(...REALM_GROUP_SETTINGS) },
  { name: "realm_user_defaults", hasId: false, order: ["realm_id"], scope: realmRows, refs: { realm_id: "realms" } },
  {
    name: "users", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms" },
    later: { bot_owner_id: "users", default_sending_channel_id: "channels", default_events_register_channel_id: "channels" },
  },
  {
    name: "user_groups", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms" },
    optionalRefs: { creator_id: "users" }, later: groupRefs(...USER_GROUP_SETTINGS),
  },
  { name: "user_group_members", hasId: false, order: ["group_id", "user_id"], scope: ofRealmUser("user_id"), refs: { group_id: GROUP, user_id: "users" } },
  {
    name: "user_group_subgroups", hasId: false, order: ["supergroup_id", "subgroup_id"],
    scope: (c) => sql`supergroup_id IN (SELECT id FROM user_groups WHERE realm_id = ${c.realmId})`, refs: { supergroup_id: GROUP, subgroup_id: GROUP },
  },
  { name: "channel_folders", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms" }, optionalRefs: { creator_id: "users" } },
  { name: "direct_message_groups", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms" } },
  {
    name: "channels", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms", ...groupRefs(...CHANNEL_GROUP_SETTINGS) },
    optionalRefs: { creator_id: "users", folder_id: "channel_folders" }, later: { recipient_id: "recipients", first_message_id: "messages" },
  },
  {
    // type 1: a user, 2: a channel, 3: a direct-message group (store/channels.ts RECIPIENT); type_id is shifted by type.
    name: "recipients", hasId: true, order: ["id"],
    scope: (c) => sql`(type = 1 AND type_id IN ${realmUsers(c)}) OR (type = 2 AND type_id IN ${realmChannels(c)})
      OR (type = 3 AND type_id IN (SELECT id FROM direct_message_groups WHERE realm_id = ${c.realmId}))`,
  },
  { name: "default_channels", hasId: false, order: ["realm_id", "channel_id"], scope: realmRows, refs: { realm_id: "realms", channel_id: "channels" } },
  { name: "subscriptions", hasId: true, order: ["id"], scope: ofRealmUser("user_id"), refs: { user_id: "users", recipient_id: "recipients" } },
  { name: "channel_message_counts", hasId: false, order: ["channel_id", "day"], scope: ofRealmChannel("channel_id"), refs: { channel_id: "channels" } },
  {
    name: "channel_email_addresses", hasId: true, order: ["id"], scope: ofRealmChannel("channel_id"),
    refs: { channel_id: "channels", creator_id: "users" }, optionalRefs: { sender_id: "users" },
  },
  { name: "realm_emoji", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms" }, optionalRefs: { author_id: "users" } },
  { name: "custom_profile_fields", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms" } },
  { name: "custom_profile_field_values", hasId: true, order: ["id"], scope: ofRealmUser("user_id"), refs: { user_id: "users", field_id: "custom_profile_fields" } },
  { name: "linkifiers", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms" } },
  { name: "realm_playgrounds", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms" } },
  { name: "realm_domains", hasId: true, order: ["id"], scope: realmRows, refs: { realm_id: "realms" } },
  // The outgoing-webhook token is kept: the bot's own server checks it (Zulip exports Service rows too).
  { name: "bot_services", hasId: true, order: ["id"], scope: ofRealmUser("bot_id"), refs: { bot_id: "users" } },
  {
    name: "messages", hasId: true, order: ["id"], scope: (c) => sql`id IN ${exportedMessages(c)}`, byMessage: "id",
    refs: { realm_id: "realms", sender_id: "users", recipient_id: "recipients" },
  },
  {
    name: "user_messages", hasId: false, order: ["message_id", "user_id"], owner: "user_id",
    scope: ofExportedMessage, byMessage: "message_id", refs: { user_id: "users", message_id: "messages" },
  },
  {
    name: "message_edits", hasId: true, order: ["id"], scope: ofExportedMessage, refs: { message_id: "messages" },
    optionalRefs: { user_id: "users", prev_channel_id: "channels", channel_id: "channels" },
  },
  { name: "submessages", hasId: true, order: ["id"], scope: ofExportedMessage, refs: { message_id: "messages", sender_id: "users" } },
  { name: "reactions", hasId: true, order: ["id"], scope: ofExportedMessage, refs: { message_id: "messages", user_id: "users" } },
  {
    // A public export keeps the files its messages link to; the others also every file of a user whose data it holds.
    name: "attachments", hasId: true, order: ["id"], refs: { realm_id: "realms", owner_id: "users" },
    scope: (c) => sql`realm_id = ${c.realmId} AND (id IN (SELECT attachment_id FROM attachment_messages WHERE ${ofExportedMessage(c)})
      OR ${inIds("owner_id", c.privateUserIds, c.dialect)})`,
  },
  {
    name: "attachment_messages", hasId: false, order: ["attachment_id", "message_id"], scope: ofExportedMessage,
    refs: { attachment_id: "attachments", message_id: "messages" },
  },
  {
    name: "image_attachments", hasId: true, order: ["id"], refs: { attachment_id: "attachments" },
    scope: (c) => sql`attachment_id IN (SELECT id FROM attachments WHERE realm_id = ${c.realmId})`,
  },
  { name: "user_status", hasId: false, order: ["user_id"], scope: ofRealmUser("user_id"), refs: { user_id: "users" } },
  { name: "presence", hasId: false, order: ["user_id"], scope: realmRows, refs: { user_id: "users", realm_id: "realms" } },
  { name: "user_topics", hasId: true, order: ["id"], owner: "user_id", scope: ofRealmUser("user_id"), refs: { user_id: "users", channel_id: "channels" } },
  { name: "alert_words", hasId: true, order: ["id"], owner: "user_id", scope: ofRealmUser("user_id"), refs: { user_id: "users" } },
  {
    name: "muted_users", hasId: false, order: ["user_id", "muted_user_id"], owner: "user_id", scope: ofRealmUser("user_id"),
    refs: { user_id: "users", muted_user_id: "users" },
  },
  { name: "drafts", hasId: true, order: ["id"], owner: "user_id", scope: ofRealmUser("user_id"), refs: { user_id: "users" } },
  { name: "saved_snippets", hasId: true, order: ["id"], owner: "user_id", scope: ofRealmUser("user_id"), refs: { user_id: "users" } },
  // Which settings a user chose themselves (FL 444's skip_if_already_edited), kept with their settings.
  { name: "user_setting_edits", hasId: false, order: ["user_id", "setting"], owner: "user_id", scope: ofRealmUser("user_id"), refs: { user_id: "users" } },
  { name: "navigation_views", hasId: true, order: ["id"], owner: "user_id", scope: ofRealmUser("user_id"), refs: { user_id: "users" } },
  { name: "bot_storage", hasId: true, order: ["id"], owner: "bot_id", scope: ofRealmUser("bot_id"), refs: { bot_id: "users" } },
  {
    name: "scheduled_messages", hasId: true, order: ["id"], owner: "sender_id", scope: realmRows,
    refs: { realm_id: "realms", sender_id: "users" },
    optionalRefs: { channel_id: "channels", delivered_message_id: "messages", reminder_target_message_id: "messages" },
  },
  {
    name: "scheduled_message_attachments", hasId: false, order: ["scheduled_message_id", "attachment_id"],
    scope: (c) => sql`scheduled_message_id IN (SELECT id FROM scheduled_messages WHERE realm_id = ${c.realmId})`,
    refs: { scheduled_message_id: "scheduled_messages", attachment_id: "attachments" },
  },
];

/** The condition selecting a table's rows for one export (its scope, and the owner filter for personal data). */
export function exportCondition(table: ExportTable, c: ScopeContext): RawBuilder<unknown> {
  return sql`(${table.scope(c)}) AND ${ownerCondition(table, c)}`;
}

/** The rows of a table marked byMessage that belong to these exported messages (one window of their ids). */
export function messageWindowCondition(table: ExportTable, c: ScopeContext, messageIds: readonly number[]): RawBuilder<unknown> {
  return sql`${inIds(table.byMessage ?? "message_id", messageIds, c.dialect)} AND ${ownerCondition(table, c)}`;
}

/** The owner filter alone (personal data of the users whose private data the export holds). */
export function ownerCondition(table: ExportTable, c: ScopeContext): RawBuilder<unknown> {
  return table.owner ? inIds(table.owner, c.privateUserIds, c.dialect) : sql`1 = 1`;
}
