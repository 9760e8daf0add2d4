/** SQL for subscriptions: who receives a recipient's (channel's, DM group's) messages. */
import type { Tx } from "./db.js";
import { prepared } from "./prepared.js";
import type { SubscriptionRow } from "./types.js";

/** Subscribes users (re-activating old subscriptions); returns the ids newly subscribed. */
export async function subscribeUsers(
  tx: Tx,
  recipientId: number,
  userIds: readonly number[],
  colorFor: (userId: number) => string,
): Promise<number[]> {
  if (userIds.length === 0) return [];
  const existing = await tx.db
    .selectFrom("subscriptions")
    .select(["user_id", "active"])
    .where("recipient_id", "=", recipientId)
    .where("user_id", "in", userIds)
    .execute();
  const byUser = new Map(existing.map((s) => [s.user_id, s.active]));
  const reactivate = userIds.filter((id) => byUser.get(id) === false);
  const fresh = userIds.filter((id) => !byUser.has(id));
  if (reactivate.length > 0) {
    await tx.db
      .updateTable("subscriptions")
      .set({ active: true })
      .where("recipient_id", "=", recipientId)
      .where("user_id", "in", reactivate)
      .execute();
  }
  if (fresh.length > 0) {
    await tx.db
      .insertInto("subscriptions")
      .values(fresh.map((user_id) => ({ user_id, recipient_id: recipientId, color: colorFor(user_id) })))
      .execute();
  }
  return [...reactivate, ...fresh];
}

/** Deactivates subscriptions; returns the ids that were actively subscribed. */
export async function unsubscribeUsers(tx: Tx, recipientId: number, userIds: readonly number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const active = await tx.db
    .selectFrom("subscriptions")
    .select("user_id")
    .where("recipient_id", "=", recipientId)
    .where("user_id", "in", userIds)
    .where("active", "=", true)
    .execute();
  const ids = active.map((s) => s.user_id);
  if (ids.length > 0) {
    await tx.db
      .updateTable("subscriptions")
      .set({ active: false })
      .where("recipient_id", "=", recipientId)
      .where("user_id", "in", ids)
      .execute();
  }
  return ids;
}

/** Active subscribers who are active users. */
export async function getSubscriberIds(tx: Tx, recipientId: number): Promise<number[]> {
  const rows = await tx.db
    .selectFrom("subscriptions")
    .innerJoin("users", "users.id", "subscriptions.user_id")
    .select("subscriptions.user_id")
    .where("subscriptions.recipient_id", "=", recipientId)
    .where("subscriptions.active", "=", true)
    .where("users.is_active", "=", true)
    .orderBy("subscriptions.user_id")
    .execute();
  return rows.map((r) => r.user_id);
}

// Sends and channel narrows check it on every request: built once (prepared.ts).
const subscriptionOf = prepared<{ userId: number; recipientId: number }, SubscriptionRow>((db, arg) =>
  db.selectFrom("subscriptions").selectAll().where("user_id", "=", arg("userId")).where("recipient_id", "=", arg("recipientId")),
);

export async function getSubscription(tx: Tx, userId: number, recipientId: number): Promise<SubscriptionRow | undefined> {
  const [row] = await subscriptionOf(tx, { userId, recipientId });
  return row;
}

export async function isSubscribed(tx: Tx, userId: number, recipientId: number): Promise<boolean> {
  const sub = await getSubscription(tx, userId, recipientId);
  return sub?.active === true;
}

/** The user's active channel subscriptions with the channel id. */
export async function getUserChannelSubscriptions(tx: Tx, userId: number): Promise<Array<SubscriptionRow & { channel_id: number }>> {
  return tx.db
    .selectFrom("subscriptions")
    .innerJoin("channels", "channels.recipient_id", "subscriptions.recipient_id")
    .selectAll("subscriptions")
    .select("channels.id as channel_id")
    .where("subscriptions.user_id", "=", userId)
    .where("subscriptions.active", "=", true)
    .execute();
}

export async function updateSubscription(
  tx: Tx,
  userId: number,
  recipientId: number,
  changes: Partial<Omit<SubscriptionRow, "id" | "user_id" | "recipient_id">>,
): Promise<void> {
  await tx.db
    .updateTable("subscriptions")
    .set(changes)
    .where("user_id", "=", userId)
    .where("recipient_id", "=", recipientId)
    .execute();
}

/** Active subscribers (active users only) of each recipient, ascending. */
export async function getSubscriberIdsByRecipient(tx: Tx, recipientIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(recipientIds.map((id) => [id, []]));
  if (recipientIds.length === 0) return out;
  const rows = await tx.db
    .selectFrom("subscriptions")
    .innerJoin("users", "users.id", "subscriptions.user_id")
    .select(["subscriptions.recipient_id", "subscriptions.user_id"])
    .where("subscriptions.recipient_id", "in", [...new Set(recipientIds)])
    .where("subscriptions.active", "=", true)
    .where("users.is_active", "=", true)
    .orderBy("subscriptions.user_id")
    .execute();
  for (const r of rows) out.get(r.recipient_id)?.push(r.user_id);
  return out;
}

/**
 * Past this many users, their rows are picked out of all the recipient's rows instead of named in
 * an IN list: a send asks for every recipient's row, and building and compiling an IN list of
 * hundreds of ids cost more than reading the channel's rows (issue 21, S12).
 */
const WHOLE_RECIPIENT_FROM = 64;

const subscriptionRowsOf = prepared<{ recipientId: number }, SubscriptionRow>((db, arg) =>
  db.selectFrom("subscriptions").selectAll().where("recipient_id", "=", arg("recipientId")),
);

/** The subscription rows (active or not) of these users to one recipient. */
export async function getSubscriptionRows(tx: Tx, recipientId: number, userIds: readonly number[]): Promise<SubscriptionRow[]> {
  if (userIds.length === 0) return [];
  const wanted = new Set(userIds);
  if (wanted.size >= WHOLE_RECIPIENT_FROM) return (await subscriptionRowsOf(tx, { recipientId })).filter((row) => wanted.has(row.user_id));
  return tx.db
    .selectFrom("subscriptions")
    .selectAll()
    .where("recipient_id", "=", recipientId)
    .where("user_id", "in", [...wanted])
    .execute();
}

/** Ids of the channels the user is actively subscribed to. */
export async function getSubscribedChannelIds(tx: Tx, userId: number): Promise<number[]> {
  const rows = await tx.db
    .selectFrom("subscriptions")
    .innerJoin("channels", "channels.recipient_id", "subscriptions.recipient_id")
    .select("channels.id")
    .where("subscriptions.user_id", "=", userId)
    .where("subscriptions.active", "=", true)
    .execute();
  return rows.map((r) => r.id);
}
