/** SQL for emoji reactions (Zulip's Reaction) and the custom emoji a reaction may refer to. */
import { sql } from "kysely";
import type { Tx } from "./db.js";

export interface ReactionKey {
  messageId: number;
  emojiCode: string;
  reactionType: string;
}

export interface ReactionRow {
  id: number;
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/**
 * Serializes reaction changes on one message (Zulip takes SELECT FOR UPDATE on the message row), so
 * two concurrent identical reactions end in "already exists", not a unique-index failure. SQLite
 * has a single writer already.
 */
export async function lockMessage(tx: Tx, messageId: number): Promise<void> {
  if (tx.dialect !== "postgres") return;
  await sql`SELECT id FROM messages WHERE id = ${messageId} FOR UPDATE`.execute(tx.db);
}

/** The oldest reaction on the message with this emoji, by anyone (the one later votes join). */
export async function findReaction(tx: Tx, key: ReactionKey, userId?: number): Promise<ReactionRow | undefined> {
  let q = tx.db
    .selectFrom("reactions")
    .selectAll()
    .where("message_id", "=", key.messageId)
    .where("emoji_code", "=", key.emojiCode)
    .where("reaction_type", "=", key.reactionType);
  if (userId !== undefined) q = q.where("user_id", "=", userId);
  const row = await q.orderBy("id").limit(1).executeTakeFirst();
  return row && { ...row, message_id: Number(row.message_id) };
}

export async function insertReaction(tx: Tx, key: ReactionKey, userId: number, emojiName: string): Promise<void> {
  await tx.db
    .insertInto("reactions")
    .values({
      message_id: key.messageId,
      user_id: userId,
      emoji_name: emojiName,
      emoji_code: key.emojiCode,
      reaction_type: key.reactionType,
    })
    .execute();
}

export async function deleteReaction(tx: Tx, id: number): Promise<void> {
  await tx.db.deleteFrom("reactions").where("id", "=", id).execute();
}

/** A custom emoji of the realm by the id its reactions carry as emoji_code (deactivated included). */
export async function getRealmEmojiById(tx: Tx, realmId: number, id: number) {
  return tx.db.selectFrom("realm_emoji").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}
