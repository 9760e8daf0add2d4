/**
 * SQL for finding direct-message conversations by their members. Every conversation is addressed
 * to a direct-message group (Recipient type 3) whose members are its subscriptions: 1:1
 * conversations are groups of two, messages to oneself a group of one (migration 0009).
 */
import { sql } from "kysely";
import { RECIPIENT } from "./channels.js";
import type { Tx } from "./db.js";

/** What identifies a group in its realm: its member ids, sorted, joined by ",". */
export function directGroupKey(memberIds: readonly number[]): string {
  return [...new Set(memberIds)].sort((a, b) => a - b).join(",");
}

/** The recipient of the direct-message group with exactly these members, if it exists. */
export async function getDirectGroupRecipientId(tx: Tx, realmId: number, memberIds: readonly number[]): Promise<number | undefined> {
  const row = await tx.db
    .selectFrom("direct_message_groups as g")
    .innerJoin("recipients as r", (j) => j.onRef("r.type_id", "=", "g.id").on("r.type", "=", RECIPIENT.DIRECT_MESSAGE_GROUP))
    .select("r.id")
    .where("g.realm_id", "=", realmId)
    .where("g.member_key", "=", directGroupKey(memberIds))
    .executeTakeFirst();
  return row?.id;
}

/** Recipients of the direct-message groups of at least `minSize` members that all of these users belong to. */
export async function getDirectGroupRecipientIdsWithAll(tx: Tx, userIds: readonly number[], minSize = 1): Promise<number[]> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  const rows = await tx.db
    .selectFrom("subscriptions as s")
    .innerJoin("recipients as r", "r.id", "s.recipient_id")
    .innerJoin("direct_message_groups as g", "g.id", "r.type_id")
    .select("s.recipient_id")
    .where("r.type", "=", RECIPIENT.DIRECT_MESSAGE_GROUP)
    .where("g.group_size", ">=", minSize)
    .where("s.user_id", "in", ids)
    .groupBy("s.recipient_id")
    .having(sql`count(DISTINCT s.user_id)`, "=", ids.length)
    .execute();
  return rows.map((r) => r.recipient_id);
}
