/**
 * SQL for finding direct-message conversations by their members: a 1:1 conversation is addressed to
 * a user's personal recipient (Recipient type 1), a larger one to a direct-message group (type 3)
 * whose members are its subscriptions.
 */
import { sql } from "kysely";
import { RECIPIENT } from "./channels.js";
import type { Tx } from "./db.js";

/** Each user's personal recipient id (users without one have never received a direct message). */
export async function getPersonalRecipientIds(tx: Tx, userIds: readonly number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx.db
    .selectFrom("recipients")
    .select(["id", "type_id"])
    .where("type", "=", RECIPIENT.PERSONAL)
    .where("type_id", "in", [...new Set(userIds)])
    .execute();
  return new Map(rows.map((r) => [r.type_id, r.id]));
}

/** The recipient of the direct-message group with exactly these members, if it exists. */
export async function getDirectGroupRecipientId(tx: Tx, realmId: number, memberIds: readonly number[]): Promise<number | undefined> {
  const key = [...new Set(memberIds)].sort((a, b) => a - b).join(",");
  const row = await tx.db
    .selectFrom("direct_message_groups as g")
    .innerJoin("recipients as r", (j) => j.onRef("r.type_id", "=", "g.id").on("r.type", "=", RECIPIENT.DIRECT_MESSAGE_GROUP))
    .select("r.id")
    .where("g.realm_id", "=", realmId)
    .where("g.member_key", "=", key)
    .executeTakeFirst();
  return row?.id;
}

/** Recipients of the direct-message groups that all of these users belong to. */
export async function getDirectGroupRecipientIdsWithAll(tx: Tx, userIds: readonly number[]): Promise<number[]> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  const rows = await tx.db
    .selectFrom("subscriptions as s")
    .innerJoin("recipients as r", "r.id", "s.recipient_id")
    .select("s.recipient_id")
    .where("r.type", "=", RECIPIENT.DIRECT_MESSAGE_GROUP)
    .where("s.user_id", "in", ids)
    .groupBy("s.recipient_id")
    .having(sql`count(DISTINCT s.user_id)`, "=", ids.length)
    .execute();
  return rows.map((r) => r.recipient_id);
}
