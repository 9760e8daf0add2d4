/**
 * better-sqlite3 behind Kysely's SqliteDialect, with two adaptations that make SQLite rows look like
 * PostgreSQL rows to the rest of the store:
 * - booleans: SQLite has no boolean type and better-sqlite3 refuses to bind JS booleans, so bound
 *   booleans become 1/0 and result columns listed in BOOLEAN_COLUMNS come back as booleans;
 * - prepared statements are cached by SQL text, so a hot query is parsed once per process.
 * Rows are read as arrays and turned into objects by a function generated once per statement (an
 * object literal with the statement's columns): half the instructions of letting better-sqlite3
 * build each object key by key and then rewriting its boolean fields (docs/PERFORMANCE.md).
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { SqliteDatabase, SqliteStatement } from "kysely";
import { BOOLEAN_COLUMNS } from "./schema.js";

const STATEMENT_CACHE_SIZE = 500;

function bindable(params: ReadonlyArray<unknown>): unknown[] {
  return params.map((p) => (p === true ? 1 : p === false ? 0 : p));
}

/** SQLite's 1/0 as a boolean; NULL (a nullable column, an outer join) stays null. */
const toBoolean = (v: unknown): unknown => (typeof v === "number" ? v !== 0 : v);

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * `(values) => ({"id": values[0], "is_active": toBoolean(values[1]), …})` for a statement's result
 * columns. As when better-sqlite3 builds the object, a name that appears twice takes the later
 * column's value. Names are written as JSON string literals, so any name is safe to embed.
 */
function rowBuilder(columns: readonly string[]): RowBuilder {
  const fields = columns.map((name, i) => `${JSON.stringify(name)}: ${BOOLEAN_COLUMNS.has(name) ? `toBoolean(v[${i}])` : `v[${i}]`}`);
  return new Function("toBoolean", `return (v) => ({ ${fields.join(", ")} });`)(toBoolean) as RowBuilder;
}

class CachedStatement implements SqliteStatement {
  /** Readers only: builds each row object from the array better-sqlite3 returns in raw mode. */
  private readonly build: RowBuilder | null;

  constructor(
    private readonly stmt: Database.Statement,
    builders: Map<string, RowBuilder>,
  ) {
    const columns = stmt.reader ? stmt.columns().map((c) => c.name) : [];
    // A "__proto__" key in an object literal would set the prototype instead of a field.
    if (stmt.reader && !columns.includes("__proto__")) {
      // Shared by every statement with these columns (the same query with IN lists of different
      // lengths), so they compile once and their rows share one object shape.
      const key = columns.join("\u0000");
      this.build = builders.get(key) ?? rowBuilder(columns);
      builders.set(key, this.build);
      stmt.raw(true);
    } else {
      this.build = null;
    }
  }

  get reader(): boolean {
    return this.stmt.reader;
  }
  all(parameters: ReadonlyArray<unknown>): unknown[] {
    const rows = this.stmt.all(bindable(parameters));
    return this.build ? (rows as unknown[][]).map(this.build) : rows;
  }
  run(parameters: ReadonlyArray<unknown>) {
    return this.stmt.run(bindable(parameters));
  }
  *iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    for (const row of this.stmt.iterate(bindable(parameters))) yield this.build ? this.build(row as unknown[]) : row;
  }
}

export class SqliteConnection implements SqliteDatabase {
  private readonly cache = new Map<string, CachedStatement>();
  /** Row builders by column list; as many as the store has distinct result shapes. */
  private readonly builders = new Map<string, RowBuilder>();

  /** Transactions begin IMMEDIATE (below); the server's choice, see StoreOptions.writeLockFirst. */
  writeLockFirst = false;

  private totalChangesStatement: Database.Statement | undefined;

  constructor(readonly raw: Database.Database) {}

  /** Rows this connection has inserted, updated or deleted since it opened, by triggers too. */
  totalChanges(): number {
    this.totalChangesStatement ??= this.raw.prepare("SELECT total_changes()").pluck();
    return this.totalChangesStatement.get() as number;
  }

  prepare(sql: string): SqliteStatement {
    // Kysely opens every transaction with a plain (deferred) "begin". With several processes on
    // one file (WORKERS > 1, manage commands beside a server), a deferred transaction that reads
    // and then writes fails with SQLITE_BUSY when another process committed in between: SQLite
    // cannot upgrade a stale read snapshot, and its busy timeout does not apply. BEGIN IMMEDIATE
    // takes the write lock first, waiting up to busy_timeout for it: one writer at a time, each
    // reading what the previous one committed (the store's claims rely on it: scheduled messages,
    // pending notifications). In one process nothing changes: its single connection already runs
    // one transaction at a time. Tools and tests keep SQLite's default (StoreOptions).
    if (sql === "begin" && this.writeLockFirst) sql = "begin immediate";
    let stmt = this.cache.get(sql);
    if (stmt) {
      // Refresh recency: Map iteration order is insertion order, so the first key is the oldest.
      this.cache.delete(sql);
    } else {
      stmt = new CachedStatement(this.raw.prepare(sql), this.builders);
      if (this.cache.size >= STATEMENT_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    }
    this.cache.set(sql, stmt);
    return stmt;
  }

  close(): void {
    this.cache.clear();
    this.builders.clear();
    this.raw.close();
  }
}

/** Opens (creating directories as needed) a SQLite file with the settings a server wants. */
/**
 * Opens a SQLite file or `:memory:`; `image` (a `serialize()`d database) opens an in-memory copy of
 * it instead — tests start each store from one migrated image rather than migrating every time.
 */
export function openSqlite(path: string, image?: Buffer): SqliteConnection {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = image && path === ":memory:" ? new Database(image) : new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  // Statement journals in memory. A statement that writes several rows inside a transaction keeps
  // the pages it changes in a statement journal, so that it alone can be undone; past 64 KiB SQLite
  // spills that journal to a temporary file. A send writes ~200 user_messages pages in one INSERT
  // (~800 KiB): each send wrote and deleted such a file, a send's p50 was ~9% higher and the
  // throughput of sends at 4 connections ~8% lower (session 10, docs/PERFORMANCE.md). The journal
  // lives only while its statement runs. This also keeps temporary tables and indices (GROUP BY,
  // DISTINCT, materialised subqueries) in memory, bounded by the result of the query; the sorter of
  // large ORDER BY and CREATE INDEX still spills to files past the page cache.
  db.pragma("temp_store = MEMORY");
  return new SqliteConnection(db);
}
