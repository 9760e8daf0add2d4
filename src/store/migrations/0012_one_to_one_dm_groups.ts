/**
 * 1:1 and self direct messages move to direct-message groups, as in Zulip 12 (feature level 482;
 * Zulip's backfill migration of 1:1 DMs to DirectMessageGroup). Until now a 1:1 message was
 * addressed to the other user's personal recipient (type 1), so the two directions of one
 * conversation had different recipients and `recipient_id`s. Now every direct-message
 * conversation is a group of its participants — two for a 1:1 conversation, one for messages to
 * oneself — with one recipient (type 3) both directions share, and its members as subscribers.
 * Members who have been deactivated get inactive subscriptions, as deactivation leaves them. Personal
 * recipient rows stay; no message points at them any more.
 */
import { sql } from "kysely";
import type { Dialect } from "../db.js";
import type { AnyDb, Migration } from "./helpers.js";

/** The group key of the conversation between users `a` and `b` (the same user for a self DM): sorted ids joined by ",". */
function memberKey(d: Dialect, a: string, b: string): string {
  const low = d === "sqlite" ? `min(${a}, ${b})` : `LEAST(${a}, ${b})`;
  const high = d === "sqlite" ? `max(${a}, ${b})` : `GREATEST(${a}, ${b})`;
  return `CASE WHEN ${a} = ${b} THEN CAST(${a} AS TEXT) ELSE CAST(${low} AS TEXT) || ',' || CAST(${high} AS TEXT) END`;
}

/** Each conversation still stored on a personal recipient: who sent, to whom, and the recipient used. */
const PERSONAL_CONVERSATIONS = `SELECT DISTINCT m.realm_id, m.sender_id, r.type_id AS target_id, r.id AS old_recipient_id
  FROM messages m JOIN recipients r ON r.id = m.recipient_id WHERE r.type = 1`;

async function run(db: AnyDb, statement: string): Promise<void> {
  await sql.raw(statement).execute(db);
}

export const oneToOneDmGroups: Migration = {
  async up(db, d) {
    const key = memberKey(d, "p.sender_id", "p.target_id");
    await run(
      db,
      `INSERT INTO direct_message_groups (realm_id, member_key, group_size)
       SELECT DISTINCT p.realm_id, ${key}, CASE WHEN p.sender_id = p.target_id THEN 1 ELSE 2 END
       FROM (${PERSONAL_CONVERSATIONS}) p
       WHERE NOT EXISTS (SELECT 1 FROM direct_message_groups g WHERE g.realm_id = p.realm_id AND g.member_key = ${key})`,
    );
    await run(
      db,
      `INSERT INTO recipients (type, type_id)
       SELECT 3, g.id FROM direct_message_groups g
       WHERE NOT EXISTS (SELECT 1 FROM recipients r WHERE r.type = 3 AND r.type_id = g.id)`,
    );
    // Each personal conversation with its new recipient.
    const moves = `SELECT p.sender_id, p.target_id, p.old_recipient_id, gr.id AS new_recipient_id
      FROM (${PERSONAL_CONVERSATIONS}) p
      JOIN direct_message_groups g ON g.realm_id = p.realm_id AND g.member_key = ${key}
      JOIN recipients gr ON gr.type = 3 AND gr.type_id = g.id`;
    await run(
      db,
      `INSERT INTO subscriptions (user_id, recipient_id, is_user_active)
       SELECT DISTINCT member.user_id, member.recipient_id, u.is_active FROM (
         SELECT mv.sender_id AS user_id, mv.new_recipient_id AS recipient_id FROM (${moves}) mv
         UNION SELECT mv.target_id, mv.new_recipient_id FROM (${moves}) mv
       ) member JOIN users u ON u.id = member.user_id
       WHERE NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = member.user_id AND s.recipient_id = member.recipient_id)`,
    );
    await run(
      db,
      `UPDATE messages SET recipient_id = mv.new_recipient_id
       FROM (${moves}) mv
       WHERE messages.recipient_id = mv.old_recipient_id AND messages.sender_id = mv.sender_id`,
    );
  },
};
