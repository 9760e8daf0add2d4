/**
 * The SQL of realm exports and imports (docs/EXPORT-FORMAT.md): rows of one table read in keyset
 * batches, id ranges reserved in a table for imported rows, rows inserted as they are, and the
 * later references set once every table is in. Table and column names come from
 * realm-export-tables.ts, never from input.
 */
import { sql, type RawBuilder } from "kysely";
import { transaction, type Store, type Tx } from "./db.js";
import { SENT_ALONE } from "./pg-statement-batches.js";
import { exportedMessageIdsAfter, exportedMessages, type ExportTable, type ExportTableName, type ScopeContext } from "./realm-export-tables.js";

export type Row = Record<string, unknown>;

/** Columns the database derives itself (PostgreSQL's full-text vector): never exported, never inserted. */
const DERIVED_COLUMNS = ["search_tsv"];

/** One batch of `table`'s rows matching `condition`, after the keyset position `after` (null: from the start). */
export async function readRowBatch(tx: Tx, table: ExportTable, condition: RawBuilder<unknown>, after: unknown[] | null, limit: number): Promise<Row[]> {
  const columns = sql.join(table.order.map((c) => sql.ref(c)));
  const position = after === null ? sql`1 = 1` : sql`(${columns}) > (${sql.join(after)})`;
  const result = await sql<Row>`SELECT * FROM ${sql.table(table.name)} WHERE (${condition}) AND ${position} ORDER BY ${columns} LIMIT ${limit}${SENT_ALONE}`.execute(tx.db);
  for (const row of result.rows) for (const column of DERIVED_COLUMNS) delete row[column];
  return result.rows;
}

/** The ids of the next `limit` exported messages after message id `after` (0: from the start), in order. */
export async function readExportedMessageIds(tx: Tx, scope: ScopeContext, after: number, limit: number): Promise<number[]> {
  const result = await sql<{ id: number }>`${exportedMessageIdsAfter(scope, after, limit)}${SENT_ALONE}`.execute(tx.db);
  return result.rows.map((row) => Number(row.id));
}

/** How many messages an export of this scope holds (the size check before an API export starts). */
export async function countExportedMessages(tx: Tx, scope: ScopeContext): Promise<number> {
  const result = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${exportedMessages(scope)} AS exported${SENT_ALONE}`.execute(tx.db);
  return Number(result.rows[0].n);
}

/**
 * Reserves `span` fresh ids in `table` and returns the base: imported ids become base + 1 …
 * base + span. The table's id counter (PostgreSQL's sequence, SQLite's AUTOINCREMENT counter in
 * sqlite_sequence) moves past the range in a short transaction of its own, under a lock so no
 * concurrent insert takes an id in it; a failed import only leaves a gap.
 */
export async function reserveIds(store: Store, table: ExportTableName, span: number): Promise<number> {
  const width = Math.max(span, 1);
  return transaction(store, async (tx) => {
    if (store.dialect === "sqlite") {
      const top = await sql<{ top: number | null }>`SELECT MAX(v) AS top FROM (
        SELECT MAX(id) AS v FROM ${sql.table(table)} UNION ALL SELECT seq AS v FROM sqlite_sequence WHERE name = ${table})`.execute(tx.db);
      const base = Number(top.rows[0].top ?? 0);
      const moved = await sql`UPDATE sqlite_sequence SET seq = ${base + width} WHERE name = ${table}`.execute(tx.db);
      if (Number(moved.numAffectedRows ?? 0) === 0) await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${table}, ${base + width})`.execute(tx.db);
      return base;
    }
    await sql`LOCK TABLE ${sql.table(table)} IN SHARE ROW EXCLUSIVE MODE`.execute(tx.db);
    const seq = sql`pg_get_serial_sequence(${table}, 'id')`;
    // nextval may waste one id: gaps are harmless, and it reads the sequence whatever its state.
    const result = await sql<{ top: string | number }>`SELECT GREATEST(
      (SELECT COALESCE(MAX(id), 0) FROM ${sql.table(table)}), nextval(${seq})) AS top`.execute(tx.db);
    const base = Number(result.rows[0].top);
    await sql`SELECT setval(${seq}, ${base + width})`.execute(tx.db);
    return base;
  });
}

/** Inserts rows of one table (all with the same columns), in chunks that stay under both engines' parameter limits. */
export async function insertRows(tx: Tx, table: ExportTableName, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]).filter((c) => !DERIVED_COLUMNS.includes(c));
  const perChunk = Math.max(1, Math.floor(30_000 / columns.length));
  for (let i = 0; i < rows.length; i += perChunk) {
    const chunk = rows.slice(i, i + perChunk);
    const values = sql.join(chunk.map((row) => sql`(${sql.join(columns.map((c) => row[c] ?? null))})`));
    await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES ${values}`.execute(tx.db);
    if (table === "messages" && tx.dialect === "sqlite") {
      // SQLite's search index is kept by the store, not by the database (store/messages.ts).
      const ids = chunk.map((row) => row.id as number);
      await sql`INSERT INTO messages_fts(rowid, subject, content) SELECT id, subject, content FROM messages WHERE id IN (${sql.join(ids)})`.execute(tx.db);
    }
  }
}

/** Sets one row's references that could only be filled once every table was in. */
export async function setLaterRefs(tx: Tx, table: ExportTableName, id: number, values: Row): Promise<void> {
  const sets = Object.entries(values).map(([c, v]) => sql`${sql.ref(c)} = ${v}`);
  if (sets.length === 0) return;
  await sql`UPDATE ${sql.table(table)} SET ${sql.join(sets)} WHERE id = ${id}`.execute(tx.db);
}

/** Whether a realm already uses this subdomain (the importer's first check). */
export async function subdomainTaken(tx: Tx, subdomain: string): Promise<boolean> {
  const row = await tx.db.selectFrom("realms").select("id").where("string_id", "=", subdomain).executeTakeFirst();
  return row !== undefined;
}
