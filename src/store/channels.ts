/** SQL for channels, their recipient rows and default channels. */
import { sql } from "kysely";
import type { Tx } from "./db.js";
import { prepared } from "./prepared.js";
import type { ChannelRow, ChannelUpdate, NewChannel } from "./types.js";

/** Zulip's Recipient types. */
export const RECIPIENT = { PERSONAL: 1, CHANNEL: 2, DIRECT_MESSAGE_GROUP: 3 } as const;

export async function insertRecipient(tx: Tx, type: number, typeId: number): Promise<number> {
  const row = await tx.db.insertInto("recipients").values({ type, type_id: typeId }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function getRecipientId(tx: Tx, type: number, typeId: number): Promise<number | undefined> {
  const row = await tx.db
    .selectFrom("recipients")
    .select("id")
    .where("type", "=", type)
    .where("type_id", "=", typeId)
    .executeTakeFirst();
  return row?.id;
}

/** Inserts the channel and its recipient row; returns the channel with recipient_id set. */
export async function insertChannel(tx: Tx, channel: NewChannel): Promise<ChannelRow> {
  const id = (await tx.db.insertInto("channels").values(channel).returning("id").executeTakeFirstOrThrow()).id;
  const recipientId = await insertRecipient(tx, RECIPIENT.CHANNEL, id);
  await tx.db.updateTable("channels").set({ recipient_id: recipientId }).where("id", "=", id).execute();
  return (await getChannelById(tx, channel.realm_id, id)) as ChannelRow;
}

export async function getChannelById(tx: Tx, realmId: number, id: number): Promise<ChannelRow | undefined> {
  return tx.db.selectFrom("channels").selectAll().where("id", "=", id).where("realm_id", "=", realmId).executeTakeFirst();
}

/**
 * Channel names are unique case-insensitively within a realm, compared by the database's lower()
 * on both sides as the unique index compares them: JavaScript's toLowerCase differs ("İ"), and a
 * name it missed here failed the insert (a 500, found by fuzzing).
 */
// Sends and channel narrows name their channel on every request: built once (prepared.ts).
const channelNamed = prepared<{ realmId: number; name: string }, ChannelRow>((db, arg) =>
  db.selectFrom("channels").selectAll().where("realm_id", "=", arg("realmId")).where(sql<string>`lower(name)`, "=", sql<string>`lower(${arg("name")})`),
);

export async function getChannelByName(tx: Tx, realmId: number, name: string): Promise<ChannelRow | undefined> {
  const [row] = await channelNamed(tx, { realmId, name });
  return row;
}

export async function getChannelsByIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<ChannelRow[]> {
  if (ids.length === 0) return [];
  return tx.db.selectFrom("channels").selectAll().where("realm_id", "=", realmId).where("id", "in", ids).execute();
}

export async function listChannels(tx: Tx, realmId: number, opts: { includeArchived?: boolean } = {}): Promise<ChannelRow[]> {
  let q = tx.db.selectFrom("channels").selectAll().where("realm_id", "=", realmId);
  if (!opts.includeArchived) q = q.where("deactivated", "=", false);
  return q.orderBy("id").execute();
}

export async function updateChannel(tx: Tx, id: number, changes: ChannelUpdate): Promise<void> {
  await tx.db.updateTable("channels").set(changes).where("id", "=", id).execute();
}

export async function getDefaultChannelIds(tx: Tx, realmId: number): Promise<number[]> {
  const rows = await tx.db.selectFrom("default_channels").select("channel_id").where("realm_id", "=", realmId).execute();
  return rows.map((r) => r.channel_id);
}

export async function addDefaultChannel(tx: Tx, realmId: number, channelId: number): Promise<void> {
  await tx.db
    .insertInto("default_channels")
    .values({ realm_id: realmId, channel_id: channelId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeDefaultChannel(tx: Tx, realmId: number, channelId: number): Promise<void> {
  await tx.db.deleteFrom("default_channels").where("realm_id", "=", realmId).where("channel_id", "=", channelId).execute();
}

export async function getChannelFolder(tx: Tx, realmId: number, id: number) {
  return tx.db.selectFrom("channel_folders").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

/** Whether any message of the channel has a non-empty topic (for topics_policy empty_topic_only). */
export async function channelHasNamedTopics(tx: Tx, recipientId: number): Promise<boolean> {
  const row = await tx.db
    .selectFrom("messages")
    .select("id")
    .where("recipient_id", "=", recipientId)
    .where("subject", "!=", "")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function getRecipientsByIds(tx: Tx, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return tx.db.selectFrom("recipients").selectAll().where("id", "in", [...new Set(ids)]).execute();
}

/** Members of direct-message groups, by recipient id (their subscriptions). */
export async function getRecipientMembers(tx: Tx, recipientIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (recipientIds.length === 0) return out;
  const rows = await tx.db
    .selectFrom("subscriptions")
    .select(["recipient_id", "user_id"])
    .where("recipient_id", "in", [...new Set(recipientIds)])
    .orderBy("user_id")
    .execute();
  for (const r of rows) out.set(r.recipient_id, [...(out.get(r.recipient_id) ?? []), r.user_id]);
  return out;
}

export async function getChannelsByRecipientIds(tx: Tx, recipientIds: readonly number[]) {
  if (recipientIds.length === 0) return [];
  return tx.db.selectFrom("channels").selectAll().where("recipient_id", "in", [...new Set(recipientIds)]).execute();
}

/** Channels (archived included) named case-insensitively by any of `names`. */
export async function getChannelsByNames(tx: Tx, realmId: number, names: readonly string[]): Promise<ChannelRow[]> {
  if (names.length === 0) return [];
  return tx.db
    .selectFrom("channels")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where(sql<string>`lower(name)`, "in", [...new Set(names.map((n) => n.toLowerCase()))])
    .execute();
}

/** Whether the realm has a web-public channel that is not archived (Zulip's get_web_public_streams_queryset().exists()). */
export async function realmHasWebPublicChannel(tx: Tx, realmId: number): Promise<boolean> {
  const row = await tx.db
    .selectFrom("channels")
    .select("id")
    .where("realm_id", "=", realmId)
    .where("is_web_public", "=", true)
    .where("deactivated", "=", false)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
