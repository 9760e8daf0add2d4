/**
 * Structural integrity of a store (issue 9, items 4 and 6): checked after a crash and after a
 * restore. Returns the problems found, none when the store is sound.
 * - SQLite: `PRAGMA integrity_check` (every b-tree and index, the full-text index included) and
 *   `PRAGMA foreign_key_check` (rows whose references dangle).
 * - PostgreSQL keeps its own pages consistent, so the check is about data: every foreign key of
 *   the store's schema has its target row, and no table holds the same id twice, read with
 *   sequential scans so that a damaged index cannot hide a duplicate.
 */
import Database from "better-sqlite3";
import { sql } from "kysely";
import { transaction, type Store, type Tx } from "./db.js";

export async function checkIntegrity(store: Store): Promise<string[]> {
  return store.dialect === "sqlite" ? checkSqlite(store) : transaction(store, checkPostgres);
}

/**
 * Runs on a connection of its own: FTS5 caches its index structure per connection, and the
 * integrity check trusts that cache, so a connection that has read the full-text index before
 * another process (the server, a restore) wrote to it reports corruption that is not there. An
 * in-memory database has no other writer, so its own connection serves.
 */
async function checkSqlite(store: Store): Promise<string[]> {
  const own = store.sqlite?.raw;
  if (!own) throw new Error("a SQLite store without its connection");
  const db = own.memory ? own : new Database(own.name, { readonly: true, fileMustExist: true });
  try {
    const problems: string[] = [];
    for (const row of db.pragma("integrity_check") as Array<{ integrity_check: string }>) {
      if (row.integrity_check !== "ok") problems.push(`integrity_check: ${row.integrity_check}`);
    }
    for (const row of db.pragma("foreign_key_check") as Array<{ table: string; rowid: number | null; parent: string }>) {
      problems.push(`${row.table} row ${row.rowid} points at a missing ${row.parent} row`);
    }
    return problems;
  } finally {
    if (db !== own) db.close();
  }
}

interface ForeignKey {
  name: string;
  child: string;
  parent: string;
  child_columns: string[];
  parent_columns: string[];
}

async function checkPostgres(tx: Tx): Promise<string[]> {
  await sql`SET LOCAL enable_indexscan = off`.execute(tx.db);
  await sql`SET LOCAL enable_indexonlyscan = off`.execute(tx.db);
  await sql`SET LOCAL enable_bitmapscan = off`.execute(tx.db);
  const problems: string[] = [];
  // Names come quoted from the catalog (regclass, quote_ident), so they are spliced in as-is.
  const keys = await sql<ForeignKey>`
    SELECT c.conname AS name, c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
      ARRAY(SELECT quote_ident(a.attname) FROM unnest(c.conkey) WITH ORDINALITY AS k(num, pos)
            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num ORDER BY k.pos) AS child_columns,
      ARRAY(SELECT quote_ident(a.attname) FROM unnest(c.confkey) WITH ORDINALITY AS k(num, pos)
            JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num ORDER BY k.pos) AS parent_columns
    FROM pg_constraint c
    WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
    ORDER BY c.conname`.execute(tx.db);
  for (const key of keys.rows) {
    const present = key.child_columns.map((col) => `x.${col} IS NOT NULL`).join(" AND ");
    const match = key.child_columns.map((col, i) => `y.${key.parent_columns[i]} = x.${col}`).join(" AND ");
    const orphans = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM ${sql.raw(key.child)} x
      WHERE ${sql.raw(present)} AND NOT EXISTS (SELECT 1 FROM ${sql.raw(key.parent)} y WHERE ${sql.raw(match)})`.execute(tx.db);
    const n = orphans.rows[0].n;
    if (n > 0) problems.push(`${key.child}: ${n} row(s) point at a missing ${key.parent} row (${key.name})`);
  }
  const withIds = await sql<{ name: string }>`
    SELECT quote_ident(c.table_name) AS name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = current_schema() AND c.column_name = 'id' ORDER BY c.table_name`.execute(tx.db);
  for (const { name } of withIds.rows) {
    const dup = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (SELECT id FROM ${sql.raw(name)} GROUP BY id HAVING count(*) > 1) d`.execute(tx.db);
    if (dup.rows[0].n > 0) problems.push(`${name}: ${dup.rows[0].n} id(s) appear more than once`);
  }
  return problems;
}
