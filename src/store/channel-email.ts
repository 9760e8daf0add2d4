/** SQL for channel email tokens (Zulip's ChannelEmailAddress; migration 0009). */
import type { Tx } from "./db.js";

export interface ChannelEmailKey {
  channelId: number;
  creatorId: number;
  /** Null: the email gateway bot sends. */
  senderId: number | null;
}

/** The token of this (channel, creator, sender), if one was made. */
export async function findChannelEmailToken(tx: Tx, key: ChannelEmailKey): Promise<string | undefined> {
  let q = tx.db
    .selectFrom("channel_email_addresses")
    .select("email_token")
    .where("channel_id", "=", key.channelId)
    .where("creator_id", "=", key.creatorId);
  q = key.senderId === null ? q.where("sender_id", "is", null) : q.where("sender_id", "=", key.senderId);
  return (await q.orderBy("id").executeTakeFirst())?.email_token;
}

export async function insertChannelEmailToken(tx: Tx, key: ChannelEmailKey, token: string, now: number): Promise<void> {
  await tx.db
    .insertInto("channel_email_addresses")
    .values({ channel_id: key.channelId, creator_id: key.creatorId, sender_id: key.senderId, email_token: token, date_created: now })
    .execute();
}
