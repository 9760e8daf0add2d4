/**
 * Bulk loading for benchmarks and query-plan tests: many channel messages written straight through
 * SQL (no rendering, no events), with the full-text index and every active subscriber's
 * user_messages row filled by INSERT … SELECT.
 *
 * Each chunk of messages travels as ONE JSON parameter that the database unpacks itself
 * (json_each on SQLite, json_array_elements on PostgreSQL): a million rows cost a few hundred
 * statements, and no per-row query building in JavaScript.
 */
import { sql } from "kysely";
import { countChannelMessagesAfter } from "./channel-traffic.js";
import type { Tx } from "./db.js";

/** Messages per INSERT statement (one JSON text of roughly 1 MB). */
const JSON_CHUNK = 5000;
/**
 * SQLite page cache during a bulk load, in KiB (negative = KiB in PRAGMA cache_size). The default
 * 2 MiB thrashes once the indexes outgrow it; with this a million messages load about twice as fast.
 */
const BULK_CACHE_KIB = 256 * 1024;

export interface SeedMessage {
  senderId: number;
  topic: string;
  content: string;
  dateSent: number;
}

export interface SeedChannelMessage extends SeedMessage {
  recipientId: number;
}

async function maxMessageId(tx: Tx): Promise<number> {
  const row = await tx.db.selectFrom("messages").select((eb) => eb.fn.max("id").as("max")).executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** Raises SQLite's page cache for a bulk load; returns what puts it back (a no-op on PostgreSQL). */
async function widenSqliteCache(tx: Tx): Promise<() => Promise<void>> {
  if (tx.dialect !== "sqlite") return async () => {};
  const { rows } = await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(tx.db);
  await sql`PRAGMA cache_size = ${sql.lit(-BULK_CACHE_KIB)}`.execute(tx.db);
  return async () => {
    await sql`PRAGMA cache_size = ${sql.lit(rows[0].cache_size)}`.execute(tx.db);
  };
}

/** One chunk, in array order (ids ascend with it). Content is plain words, so `<p>…</p>` is its rendering. */
async function insertChunk(tx: Tx, realmId: number, chunk: readonly SeedChannelMessage[]): Promise<void> {
  const json = JSON.stringify(chunk.map((m) => [m.senderId, m.recipientId, m.topic, m.content, m.dateSent]));
  if (tx.dialect === "sqlite") {
    await sql`INSERT INTO messages (realm_id, sender_id, recipient_id, type, subject, content, rendered_content, date_sent, sending_client)
      SELECT ${realmId}, value ->> 0, value ->> 1, 2, value ->> 2, value ->> 3, '<p>' || (value ->> 3) || '</p>', value ->> 4, 'seed'
      FROM json_each(${json}) ORDER BY key`.execute(tx.db);
  } else {
    await sql`INSERT INTO messages (realm_id, sender_id, recipient_id, type, subject, content, rendered_content, date_sent, sending_client)
      SELECT ${realmId}, (e ->> 0)::int, (e ->> 1)::int, 2, e ->> 2, e ->> 3, '<p>' || (e ->> 3) || '</p>', (e ->> 4)::bigint, 'seed'
      FROM json_array_elements(${json}::json) WITH ORDINALITY AS t(e, n) ORDER BY n`.execute(tx.db);
  }
}

/**
 * Inserts `count` channel messages, the i-th being `make(i)`; indexes them for search, counts them
 * for channel traffic and gives each active subscriber of their channel a row (read for the
 * sender, unread for the others). Messages
 * are produced chunk by chunk, so a million never sit in memory at once. Returns the new ids' range.
 */
export async function bulkInsertMessages(
  tx: Tx,
  realmId: number,
  count: number,
  make: (i: number) => SeedChannelMessage,
): Promise<{ firstId: number; lastId: number }> {
  const floor = await maxMessageId(tx);
  const restoreCache = await widenSqliteCache(tx);
  for (let start = 0; start < count; start += JSON_CHUNK) {
    const chunk: SeedChannelMessage[] = [];
    for (let i = start; i < Math.min(count, start + JSON_CHUNK); i++) chunk.push(make(i));
    await insertChunk(tx, realmId, chunk);
  }
  if (tx.dialect === "sqlite") {
    await sql`INSERT INTO messages_fts(rowid, subject, content) SELECT id, subject, content FROM messages WHERE id > ${floor}`.execute(tx.db);
  }
  await sql`INSERT INTO user_messages (user_id, message_id, flags)
    SELECT s.user_id, m.id, CASE WHEN s.user_id = m.sender_id THEN 1 ELSE 0 END
    FROM messages m JOIN subscriptions s ON s.recipient_id = m.recipient_id AND s.active = ${true}
    WHERE m.id > ${floor}`.execute(tx.db);
  await countChannelMessagesAfter(tx, floor);
  await restoreCache();
  return { firstId: floor + 1, lastId: await maxMessageId(tx) };
}

/** The messages into one channel (recipient); see bulkInsertMessages. */
export async function bulkInsertChannelMessages(
  tx: Tx,
  realmId: number,
  recipientId: number,
  messages: readonly SeedMessage[],
): Promise<{ firstId: number; lastId: number }> {
  return bulkInsertMessages(tx, realmId, messages.length, (i) => ({ ...messages[i], recipientId }));
}

/** Refreshes the planner's statistics after a bulk load. */
export async function analyze(tx: Tx): Promise<void> {
  await sql`ANALYZE`.execute(tx.db);
}
