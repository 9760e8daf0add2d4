/**
 * SQL for topics: a channel's topic history (from its messages) and per-user topic visibility
 * (Zulip's UserTopic; one row per user, channel and case-insensitive topic name).
 */
import { sql } from "kysely";
import type { Tx } from "./db.js";
import { SENT_ALONE } from "./pg-statement-batches.js";

/**
 * Each exact topic spelling in the channel with its newest message id. When `viewerId` is given,
 * only messages that user holds a user_messages row for count (protected history).
 */
export async function getTopicMaxIds(
  tx: Tx,
  realmId: number,
  recipientId: number,
  viewerId: number | null,
): Promise<Array<{ topic: string; maxId: number }>> {
  const rows = await tx.db
    .selectFrom("messages")
    .select(["messages.subject", (eb) => eb.fn.max("messages.id").as("max_id")])
    .where("messages.realm_id", "=", realmId)
    .where("messages.recipient_id", "=", recipientId)
    .$if(viewerId !== null, (qb) =>
      qb.where((eb) =>
        eb.exists(
          eb
            .selectFrom("user_messages")
            .select("user_messages.message_id")
            .whereRef("user_messages.message_id", "=", "messages.id")
            .where("user_messages.user_id", "=", viewerId as number),
        ),
      ),
    )
    .groupBy("messages.subject")
    .modifyEnd(SENT_ALONE)
    .execute();
  return rows.map((r) => ({ topic: r.subject, maxId: Number(r.max_id) }));
}

export interface UserTopicRow {
  id: number;
  user_id: number;
  channel_id: number;
  topic_name: string;
  visibility_policy: number;
  last_updated: number;
}

const sameTopic = (topic: string) => sql<boolean>`lower(topic_name) = lower(${topic})`;

export async function getUserTopic(tx: Tx, userId: number, channelId: number, topic: string): Promise<UserTopicRow | undefined> {
  return tx.db
    .selectFrom("user_topics")
    .selectAll()
    .where("user_id", "=", userId)
    .where("channel_id", "=", channelId)
    .where(sameTopic(topic))
    .executeTakeFirst();
}

/** These users' visibility policies for one topic (users without one are left out). */
export async function getTopicPolicies(tx: Tx, channelId: number, topic: string, userIds: readonly number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx.db
    .selectFrom("user_topics")
    .select(["user_id", "visibility_policy"])
    .where("channel_id", "=", channelId)
    .where(sameTopic(topic))
    .where("user_id", "in", [...userIds])
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.visibility_policy]));
}

/** Inserts the row unless one for the same topic appeared meanwhile; returns whether it did. */
export async function insertUserTopic(tx: Tx, row: Omit<UserTopicRow, "id">): Promise<boolean> {
  const result = await tx.db
    .insertInto("user_topics")
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateUserTopic(tx: Tx, id: number, visibilityPolicy: number, lastUpdated: number): Promise<void> {
  await tx.db
    .updateTable("user_topics")
    .set({ visibility_policy: visibilityPolicy, last_updated: lastUpdated })
    .where("id", "=", id)
    .execute();
}

export async function deleteUserTopic(tx: Tx, id: number): Promise<void> {
  await tx.db.deleteFrom("user_topics").where("id", "=", id).execute();
}

/** The user's topics with this policy in channels that are not archived, with the channel name. */
export async function getUserTopicsWithPolicy(
  tx: Tx,
  userId: number,
  visibilityPolicy: number,
): Promise<Array<{ channel_name: string; topic_name: string; last_updated: number }>> {
  return tx.db
    .selectFrom("user_topics")
    .innerJoin("channels", "channels.id", "user_topics.channel_id")
    .select(["channels.name as channel_name", "user_topics.topic_name", "user_topics.last_updated"])
    .where("user_topics.user_id", "=", userId)
    .where("user_topics.visibility_policy", "=", visibilityPolicy)
    .where("channels.deactivated", "=", false)
    .orderBy("user_topics.id")
    .execute();
}
