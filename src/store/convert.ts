/**
 * Copies a whole deployment from one store to another, across dialects (issue 18, item 5:
 * `manage convert`, SQLite ⇄ PostgreSQL). Both stores are at this version's migration level, so
 * their tables and columns are the same; every row is copied table by table in one transaction on
 * the target, values converted where the two engines store them differently (booleans as 0/1 on
 * SQLite, JSON parsed by the PostgreSQL driver). Foreign keys are set aside during the copy and
 * checked at its end (dropped and re-added on PostgreSQL, which validates them; `foreign_keys`
 * off and `foreign_key_check` on SQLite), so the order of tables and rows does not matter. Id
 * sequences continue where the source's were (a deleted message's id is never reused).
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { Dialect, Store } from "./db.js";
import type { DB } from "./schema.js";

/** Rows per INSERT: under both engines' bound-parameter limits for Parley's widest table. */
const MAX_PARAMETERS = 30_000;
const MAX_BATCH_ROWS = 500;
/** The migrator's own tables: the target has them already (it was migrated). */
const SKIPPED = new Set(["kysely_migration", "kysely_migration_lock"]);
/** Filled by triggers while the other tables are copied: emptied and copied last. */
const TRIGGER_FILLED = "row_versions";
/**
 * SQLite's full-text index of messages (migration 0002: a contentless FTS5 table, with its shadow
 * tables) is not data: it is rebuilt from the copied messages, as store/bulk-seed.ts fills it.
 * PostgreSQL's counterpart is a generated column, which the copy leaves to the database.
 */
const SQLITE_SEARCH_INDEX = "messages_fts";

type Db = Kysely<DB> | Transaction<DB>;
type Row = Record<string, unknown>;

interface TableShape {
  name: string;
  columns: Array<{ name: string; type: string }>;
  /** It has an integer `id` column. */
  hasId: boolean;
}

export interface ConvertSummary {
  tables: number;
  rows: number;
}

/** Columns the database computes itself ("table.column"), which an INSERT may not name. */
async function generatedColumns(store: Store): Promise<Set<string>> {
  if (store.dialect === "sqlite") return new Set();
  const { rows } = await sql<{ t: string; c: string }>`
    SELECT table_name AS t, column_name AS c FROM information_schema.columns
    WHERE table_schema = current_schema() AND is_generated = 'ALWAYS'`.execute(store.db);
  return new Set(rows.map((r) => `${r.t}.${r.c}`));
}

async function tableShapes(store: Store): Promise<TableShape[]> {
  const tables = await store.db.introspection.getTables();
  const schema = store.dialect === "postgres" ? (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(store.db)).rows[0].s : undefined;
  const generated = await generatedColumns(store);
  return tables
    .filter((t) => !SKIPPED.has(t.name) && !t.isView && !t.name.startsWith(SQLITE_SEARCH_INDEX) && (schema === undefined || t.schema === schema))
    .map((t) => ({
      name: t.name,
      columns: t.columns.filter((c) => !generated.has(`${t.name}.${c.name}`)).map((c) => ({ name: c.name, type: c.dataType.toLowerCase() })),
      // An integer id pages the read and has a sequence; a text id (the deployment's) is just a column.
      hasId: t.columns.some((c) => c.name === "id" && c.dataType.toLowerCase().includes("int")),
    }))
    .sort((a, b) => Number(a.name === TRIGGER_FILLED) - Number(b.name === TRIGGER_FILLED) || a.name.localeCompare(b.name));
}

/** A source value as the target's column takes it. */
function convertValue(value: unknown, targetType: string, target: Dialect): unknown {
  if (value === null || value === undefined) return null;
  if (target === "postgres") return targetType === "bool" || targetType === "boolean" ? Boolean(value) : value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (typeof value === "object" && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value;
}

/** Reads a table in pages: by id where there is one, else by the engine's row address. */
async function* readPages(source: Store, table: TableShape, size: number): AsyncGenerator<Row[]> {
  const t = sql.table(table.name);
  if (table.hasId) {
    let after = -1;
    for (;;) {
      const { rows } = await sql<Row>`SELECT * FROM ${t} WHERE id > ${after} ORDER BY id LIMIT ${size}`.execute(source.db);
      if (rows.length === 0) return;
      yield rows;
      after = Number(rows[rows.length - 1].id);
    }
  }
  const address = sql.raw(source.dialect === "sqlite" ? "rowid" : "ctid");
  for (let offset = 0; ; offset += size) {
    const { rows } = await sql<Row>`SELECT * FROM ${t} ORDER BY ${address} LIMIT ${size} OFFSET ${offset}`.execute(source.db);
    if (rows.length === 0) return;
    yield rows;
  }
}

async function copyTable(source: Store, target: Store, tx: Db, table: TableShape): Promise<number> {
  const size = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / table.columns.length)));
  let copied = 0;
  for await (const rows of readPages(source, table, size)) {
    const values = rows.map((row) => Object.fromEntries(table.columns.map((c) => [c.name, convertValue(row[c.name], c.type, target.dialect)])));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table is known only at run time
    await (tx as Kysely<any>).insertInto(table.name).values(values).execute();
    copied += rows.length;
  }
  return copied;
}

/** Where each table's id sequence stands in the source: at least its largest id. */
async function sequencePositions(store: Store, tables: TableShape[]): Promise<Map<string, number>> {
  const positions = new Map<string, number>();
  for (const table of tables.filter((t) => t.hasId)) {
    const { rows } = await sql<{ n: number | null }>`SELECT max(id) AS n FROM ${sql.table(table.name)}`.execute(store.db);
    positions.set(table.name, Number(rows[0].n ?? 0));
  }
  if (store.dialect === "sqlite") {
    const { rows } = await sql<{ name: string; seq: number }>`SELECT name, seq FROM sqlite_sequence`.execute(store.db);
    for (const r of rows) if (positions.has(r.name)) positions.set(r.name, Math.max(positions.get(r.name) as number, Number(r.seq)));
  } else {
    for (const name of positions.keys()) {
      const { rows } = await sql<{ seq: string | null }>`SELECT pg_get_serial_sequence(${name}, 'id') AS seq`.execute(store.db);
      if (!rows[0].seq) continue;
      const { rows: state } = await sql<{ last_value: number; is_called: boolean }>`SELECT last_value, is_called FROM ${sql.raw(rows[0].seq)}`.execute(store.db);
      const used = state[0].is_called ? Number(state[0].last_value) : Number(state[0].last_value) - 1;
      positions.set(name, Math.max(positions.get(name) as number, used));
    }
  }
  return positions;
}

async function setSequences(tx: Db, dialect: Dialect, positions: Map<string, number>): Promise<void> {
  for (const [name, used] of positions) {
    if (used <= 0) continue;
    if (dialect === "postgres") {
      await sql`SELECT setval(pg_get_serial_sequence(${name}, 'id'), ${used}, true) WHERE pg_get_serial_sequence(${name}, 'id') IS NOT NULL`.execute(tx);
    } else {
      await sql`DELETE FROM sqlite_sequence WHERE name = ${name}`.execute(tx);
      await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${name}, ${used})`.execute(tx);
    }
  }
}

interface ForeignKey {
  table: string;
  name: string;
  definition: string;
}

async function postgresForeignKeys(tx: Db): Promise<ForeignKey[]> {
  const { rows } = await sql<ForeignKey>`
    SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
    FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace`.execute(tx);
  return rows;
}

/** Whether the target holds an organization already (a conversion never merges). */
export async function storeHasData(store: Store): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM realms`.execute(store.db);
  return Number(rows[0].n) > 0;
}

/** Replaces every row of `target` (migrated, without organizations) with those of `source`. */
export async function copyStore(source: Store, target: Store): Promise<ConvertSummary> {
  const tables = await tableShapes(target);
  const positions = await sequencePositions(source, tables);
  if (target.dialect === "sqlite") await sql`PRAGMA foreign_keys = OFF`.execute(target.db);
  try {
    return await target.db.transaction().execute(async (tx) => {
      const keys = target.dialect === "postgres" ? await postgresForeignKeys(tx) : [];
      for (const key of keys) await sql`ALTER TABLE ${sql.raw(key.table)} DROP CONSTRAINT ${sql.id(key.name)}`.execute(tx);
      // What migrations seeded (the deployment id, emoji rows) makes way for the source's.
      for (const table of tables) await sql`DELETE FROM ${sql.table(table.name)}`.execute(tx);
      let rows = 0;
      for (const table of tables) {
        if (table.name === TRIGGER_FILLED) await sql`DELETE FROM ${sql.table(table.name)}`.execute(tx);
        rows += await copyTable(source, target, tx, table);
      }
      if (target.dialect === "sqlite") {
        await sql`INSERT INTO ${sql.table(SQLITE_SEARCH_INDEX)}(${sql.table(SQLITE_SEARCH_INDEX)}) VALUES ('delete-all')`.execute(tx);
        await sql`INSERT INTO ${sql.table(SQLITE_SEARCH_INDEX)}(rowid, subject, content) SELECT id, subject, content FROM messages`.execute(tx);
      }
      await setSequences(tx, target.dialect, positions);
      for (const key of keys) await sql`ALTER TABLE ${sql.raw(key.table)} ADD CONSTRAINT ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(tx);
      if (target.dialect === "sqlite") {
        const { rows: broken } = await sql<{ table: string }>`PRAGMA foreign_key_check`.execute(tx);
        if (broken.length > 0) throw new Error(`the copied rows break ${broken.length} foreign key(s), first in ${broken[0].table}`);
      }
      return { tables: tables.length, rows };
    });
  } finally {
    if (target.dialect === "sqlite") await sql`PRAGMA foreign_keys = ON`.execute(target.db);
  }
}
