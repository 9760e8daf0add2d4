/** Lookups the Markdown renderer needs for one message: only the rows its source refers to. */
import { sql, type Selectable } from "kysely";
import type { Tx } from "./db.js";
import { prepared } from "./prepared.js";
import type { DB } from "./schema.js";
import type { ChannelRow } from "./types.js";

export async function getUsersForMentions(tx: Tx, realmId: number, names: readonly string[], ids: readonly number[]) {
  if (names.length === 0 && ids.length === 0) return [];
  return tx.db
    .selectFrom("users")
    .select(["id", "full_name", "email", "is_active", "is_bot"])
    .where("realm_id", "=", realmId)
    .where((eb) =>
      eb.or([
        ...(names.length ? [eb(sql<string>`lower(full_name)`, "in", names.map((n) => n.toLowerCase()))] : []),
        ...(ids.length ? [eb("id", "in", ids)] : []),
      ]),
    )
    .execute();
}

export async function getNamedGroupsByNames(tx: Tx, realmId: number, names: readonly string[]) {
  if (names.length === 0) return [];
  const rows = await tx.db
    .selectFrom("user_groups")
    .select(["id", "name", "deactivated"])
    .where("realm_id", "=", realmId)
    .where("name", "is not", null)
    .where(sql<string>`lower(name)`, "in", names.map((n) => n.toLowerCase()))
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name as string, deactivated: r.deactivated }));
}

/** Channels by name, each with whether `userId` is actively subscribed (actions decide who may link which). */
export async function getChannelsByNamesForUser(tx: Tx, realmId: number, userId: number, names: readonly string[]): Promise<Array<ChannelRow & { subscribed: boolean }>> {
  if (names.length === 0) return [];
  const rows = await tx.db
    .selectFrom("channels")
    .leftJoin("subscriptions", (join) =>
      join
        .onRef("subscriptions.recipient_id", "=", "channels.recipient_id")
        .on("subscriptions.user_id", "=", userId)
        .on("subscriptions.active", "=", true),
    )
    .selectAll("channels")
    .select("subscriptions.id as subscription_id")
    .where("channels.realm_id", "=", realmId)
    .where(sql<string>`lower(channels.name)`, "in", names.map((n) => n.toLowerCase()))
    .execute();
  return rows.map(({ subscription_id, ...channel }) => ({ ...(channel as ChannelRow), subscribed: subscription_id !== null }));
}

export async function getRealmEmojiByNames(tx: Tx, realmId: number, names: readonly string[]) {
  if (names.length === 0) return [];
  return tx.db
    .selectFrom("realm_emoji")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("name", "in", names)
    .execute();
}

// Every send and every message fetch reads them (topic links): built once (prepared.ts).
const linkifiersOf = prepared<{ realmId: number }, Selectable<DB["linkifiers"]>>((db, arg) =>
  db.selectFrom("linkifiers").selectAll().where("realm_id", "=", arg("realmId")).orderBy("order").orderBy("id"),
);

export async function getLinkifiers(tx: Tx, realmId: number) {
  return linkifiersOf(tx, { realmId });
}

/** A topic a message links to, in a channel whose content the author may read. */
export interface LinkedTopic {
  recipientId: number;
  topic: string;
  /** Whether the author reads the whole history, or only the messages they received. */
  sharedHistory: boolean;
}

/** Topics per query: each is one OR branch, and SQLite limits expression depth. */
const LINKED_TOPICS_PER_QUERY = 100;

/**
 * The latest message of each linked topic that `userId` can read (topic names match
 * case-insensitively), keyed by `${recipientId}\u0000${lowercased topic}`; topics with none are absent.
 */
export async function getLatestReadableTopicMessageIds(tx: Tx, userId: number, topics: readonly LinkedTopic[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < topics.length; i += LINKED_TOPICS_PER_QUERY) {
    const chunk = topics.slice(i, i + LINKED_TOPICS_PER_QUERY);
    for (const sharedHistory of [true, false]) {
      const wanted = chunk.filter((t) => t.sharedHistory === sharedHistory);
      if (wanted.length === 0) continue;
      let q = tx.db
        .selectFrom("messages")
        .select(["messages.recipient_id", sql<string>`lower(messages.subject)`.as("topic"), (eb) => eb.fn.max("messages.id").as("id")])
        .where((eb) => eb.or(wanted.map((t) => eb.and([eb("messages.recipient_id", "=", t.recipientId), eb(sql<string>`lower(messages.subject)`, "=", t.topic.toLowerCase())]))))
        .groupBy(["messages.recipient_id", sql`lower(messages.subject)`]);
      if (!sharedHistory) {
        q = q.innerJoin("user_messages", (j) => j.onRef("user_messages.message_id", "=", "messages.id").on("user_messages.user_id", "=", userId));
      }
      for (const row of await q.execute()) out.set(`${row.recipient_id}\u0000${row.topic}`, Number(row.id));
    }
  }
  return out;
}
