/**
 * SQL for bots' key/value storage (Zulip's BotStorageData; migration 0009). Keys are looked up by
 * their SHA-256 (`key_hash`), which the unique index covers, since keys have no length bound of
 * their own; `size` is the entry's length in code points (key plus value), summed for the limit.
 */
import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Tx } from "./db.js";

export interface BotStorageEntry {
  key: string;
  value: string;
}

const hashOf = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

/**
 * Serializes storage changes of one bot (PostgreSQL; SQLite runs one writer at a time anyway), so
 * two requests cannot both pass the size check on the same old total.
 */
export async function lockBotStorage(tx: Tx, botId: number): Promise<void> {
  if (tx.dialect === "postgres") await sql`SELECT id FROM users WHERE id = ${botId} FOR UPDATE`.execute(tx.db);
}

/** The bot's entries, all of them or those with these keys (each key once), oldest first. */
export async function getBotStorageEntries(tx: Tx, botId: number, keys?: readonly string[]): Promise<BotStorageEntry[]> {
  let q = tx.db.selectFrom("bot_storage").select(["key", "value"]).where("bot_id", "=", botId);
  if (keys !== undefined) q = q.where("key_hash", "in", [...new Set(keys)].map(hashOf));
  return q.orderBy("id").execute();
}

/** The sizes of those of these keys the bot has stored, by key. */
export async function getBotStorageSizes(tx: Tx, botId: number, keys: readonly string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.db
    .selectFrom("bot_storage")
    .select(["key", "size"])
    .where("bot_id", "=", botId)
    .where("key_hash", "in", [...new Set(keys)].map(hashOf))
    .execute();
  return new Map(rows.map((r) => [r.key, Number(r.size)]));
}

/** Everything the bot stores, in code points. */
export async function getBotStorageTotal(tx: Tx, botId: number): Promise<number> {
  const row = await tx.db
    .selectFrom("bot_storage")
    .select((eb) => eb.fn.sum<number | string | null>("size").as("total"))
    .where("bot_id", "=", botId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Rows per INSERT: a request may carry millions of tiny entries, written in a few thousand statements. */
const BATCH = 500;

/** Adds the entries (each key once), replacing the value of keys already stored. */
export async function putBotStorageEntries(tx: Tx, botId: number, entries: ReadonlyArray<BotStorageEntry & { size: number }>): Promise<void> {
  for (let i = 0; i < entries.length; i += BATCH) {
    const rows = entries.slice(i, i + BATCH).map(({ key, value, size }) => ({ bot_id: botId, key_hash: hashOf(key), key, value, size }));
    await tx.db
      .insertInto("bot_storage")
      .values(rows)
      .onConflict((oc) => oc.columns(["bot_id", "key_hash"]).doUpdateSet((eb) => ({ value: eb.ref("excluded.value"), size: eb.ref("excluded.size") })))
      .execute();
  }
}

/** Removes the entries with these keys; returns how many there were. */
export async function deleteBotStorageEntries(tx: Tx, botId: number, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const result = await tx.db
    .deleteFrom("bot_storage")
    .where("bot_id", "=", botId)
    .where("key_hash", "in", [...new Set(keys)].map(hashOf))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
