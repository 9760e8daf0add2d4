/** Reads behind POST /register's initial state that no other store module already offers. */
import { sql } from "kysely";
import type { Tx } from "./db.js";
import { realmList } from "./realm-lists.js";

/** The user's unread messages (newest 50,000, as Zulip caps them) with what groups them. */
export async function getUnreadMessages(tx: Tx, userId: number, limit = 50000) {
  return tx.db
    .selectFrom("user_messages")
    .innerJoin("messages", "messages.id", "user_messages.message_id")
    .select([
      "messages.id",
      "messages.sender_id",
      "messages.recipient_id",
      "messages.type",
      "messages.subject",
      "user_messages.flags",
    ])
    .where("user_messages.user_id", "=", userId)
    .where(sql<number>`(user_messages.flags & 1)`, "=", 0)
    .orderBy("user_messages.message_id", "desc")
    .limit(limit)
    .execute();
}

export async function getStarredMessageIds(tx: Tx, userId: number): Promise<number[]> {
  const rows = await tx.db
    .selectFrom("user_messages")
    .select("message_id")
    .where("user_id", "=", userId)
    .where(sql<number>`(flags & 2)`, "!=", 0)
    .orderBy("message_id")
    .execute();
  return rows.map((r) => Number(r.message_id));
}

export async function getUserTopics(tx: Tx, userId: number) {
  return tx.db
    .selectFrom("user_topics")
    .select(["channel_id", "topic_name", "visibility_policy", "last_updated"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

export async function getAlertWords(tx: Tx, userId: number): Promise<string[]> {
  const rows = await tx.db.selectFrom("alert_words").select("word").where("user_id", "=", userId).orderBy("id").execute();
  return rows.map((r) => r.word);
}

export async function getRealmUserStatuses(tx: Tx, realmId: number) {
  return tx.db
    .selectFrom("user_status")
    .innerJoin("users", "users.id", "user_status.user_id")
    .selectAll("user_status")
    .where("users.realm_id", "=", realmId)
    .execute();
}

/** Every profile field value of the realm's users; kept in memory like the users themselves (realm-lists.ts). */
export async function getRealmProfileValues(tx: Tx, realmId: number) {
  return realmList(tx, realmId, "profile-values", ["realm_users"], () =>
    tx.db
      .selectFrom("custom_profile_field_values")
      .innerJoin("users", "users.id", "custom_profile_field_values.user_id")
      .select(["custom_profile_field_values.user_id", "field_id", "value", "rendered_value"])
      .where("users.realm_id", "=", realmId)
      .execute(),
  );
}

export async function getRealmEmoji(tx: Tx, realmId: number) {
  return tx.db.selectFrom("realm_emoji").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

export async function getChannelFolders(tx: Tx, realmId: number) {
  return tx.db.selectFrom("channel_folders").selectAll().where("realm_id", "=", realmId).orderBy("order").orderBy("id").execute();
}

export async function getDrafts(tx: Tx, userId: number) {
  return tx.db.selectFrom("drafts").selectAll().where("user_id", "=", userId).orderBy("id").execute();
}

export async function getNamedGroups(tx: Tx, realmId: number) {
  return tx.db.selectFrom("user_groups").selectAll().where("realm_id", "=", realmId).where("name", "is not", null).orderBy("id").execute();
}

/**
 * Every group membership and subgroup link of a realm. Kept in memory until a membership, a
 * subgroup link or a user of the realm changes (deactivation changes membership: realm-lists.ts).
 */
export async function getAllMemberships(tx: Tx, realmId: number) {
  return realmList(tx, realmId, "group-memberships", ["realm_groups", "realm_users"], () => readAllMemberships(tx, realmId));
}

async function readAllMemberships(tx: Tx, realmId: number) {
  const [members, subgroups] = await Promise.all([
    // Deactivated users keep their rows but are no group's members while deactivated (FL 303).
    // CROSS JOIN fixes SQLite's join order to groups → members → users (PostgreSQL plans it
    // freely): SQLite otherwise scanned every user first, a quarter slower at 5,000 users.
    tx.db
      .selectFrom("user_groups")
      .crossJoin("user_group_members")
      .crossJoin("users")
      .select(["user_group_members.group_id", "user_group_members.user_id"])
      .whereRef("user_group_members.group_id", "=", "user_groups.id")
      .whereRef("users.id", "=", "user_group_members.user_id")
      .where("user_groups.realm_id", "=", realmId)
      .where("users.is_active", "=", true)
      .execute(),
    tx.db
      .selectFrom("user_group_subgroups")
      .innerJoin("user_groups", "user_groups.id", "user_group_subgroups.supergroup_id")
      .select(["user_group_subgroups.supergroup_id", "user_group_subgroups.subgroup_id"])
      .where("user_groups.realm_id", "=", realmId)
      .execute(),
  ]);
  return { members, subgroups };
}

/**
 * Every active subscription (user, channel) of a realm's channels, for subscriber lists. Deactivated
 * users are left out through subscriptions.is_user_active (kept by user-activation, as in Zulip)
 * rather than a join with users: with that join SQLite planned an automatic index on
 * users.is_active and probed every (user, channel) pair — 2.4 s for 5,000 users and 500 channels
 * instead of 30 ms (issue 8, S8). Kept in memory until a subscription of the realm changes
 * (realm-lists.ts).
 */
export async function getRealmChannelSubscribers(tx: Tx, realmId: number) {
  return realmList(tx, realmId, "channel-subscribers", ["realm_subscriptions"], () =>
    tx.db
      .selectFrom("subscriptions")
      .innerJoin("channels", "channels.recipient_id", "subscriptions.recipient_id")
      .select(["channels.id as channel_id", "subscriptions.user_id"])
      .where("channels.realm_id", "=", realmId)
      .where("subscriptions.active", "=", true)
      .where("subscriptions.is_user_active", "=", true)
      .execute(),
  );
}

/** How many active subscribers (active users, as above) each of a realm's channels has; cached as above. */
export async function getRealmChannelSubscriberCounts(tx: Tx, realmId: number): Promise<ReadonlyMap<number, number>> {
  return realmList(tx, realmId, "channel-subscriber-counts", ["realm_subscriptions"], () => readSubscriberCounts(tx, realmId));
}

async function readSubscriberCounts(tx: Tx, realmId: number): Promise<ReadonlyMap<number, number>> {
  const rows = await tx.db
    .selectFrom("subscriptions")
    .innerJoin("channels", "channels.recipient_id", "subscriptions.recipient_id")
    .select((eb) => ["channels.id as channel_id", eb.fn.countAll<number>().as("subscribers")])
    .where("channels.realm_id", "=", realmId)
    .where("subscriptions.active", "=", true)
    .where("subscriptions.is_user_active", "=", true)
    .groupBy("channels.id")
    .execute();
  return new Map(rows.map((r) => [r.channel_id, Number(r.subscribers)]));
}

/** All of a user's channel subscription rows, active or not, with the channel id. */
export async function getAllChannelSubscriptions(tx: Tx, userId: number) {
  return tx.db
    .selectFrom("subscriptions")
    .innerJoin("channels", "channels.recipient_id", "subscriptions.recipient_id")
    .selectAll("subscriptions")
    .select("channels.id as channel_id")
    .where("subscriptions.user_id", "=", userId)
    .execute();
}

/**
 * The user's direct-message conversations, newest first (Zulip keeps 1000): each conversation is
 * one direct-message group, so its recipient identifies it.
 */
export async function getRecentDirectConversations(tx: Tx, userId: number, limit = 1000) {
  return tx.db
    .selectFrom("user_messages")
    .innerJoin("messages", "messages.id", "user_messages.message_id")
    .select(["messages.recipient_id", (eb) => eb.fn.max("messages.id").as("max_id")])
    .where("user_messages.user_id", "=", userId)
    .where("messages.type", "!=", 2)
    .groupBy("messages.recipient_id")
    .orderBy("max_id", "desc")
    .limit(limit)
    .execute();
}
