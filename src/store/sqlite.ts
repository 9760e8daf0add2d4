/**
 * better-sqlite3 behind Kysely's SqliteDialect, with two adaptations that make SQLite rows look like
 * PostgreSQL rows to the rest of the store:
 * - booleans: SQLite has no boolean type and better-sqlite3 refuses to bind JS booleans, so bound
 *   booleans become 1/0 and result columns listed in BOOLEAN_COLUMNS come back as booleans;
 * - prepared statements are cached by SQL text, so a hot query is parsed once per process.
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

class CachedStatement implements SqliteStatement {
  /** Result columns holding booleans, worked out once per statement rather than per row. */
  private readonly booleanColumns: string[];

  constructor(private readonly stmt: Database.Statement) {
    this.booleanColumns = stmt.reader ? stmt.columns().map((c) => c.name).filter((name) => BOOLEAN_COLUMNS.has(name)) : [];
  }

  private withBooleans = (row: unknown): unknown => {
    const r = row as Record<string, unknown>;
    for (const key of this.booleanColumns) {
      if (typeof r[key] === "number") r[key] = r[key] !== 0;
    }
    return r;
  };

  get reader(): boolean {
    return this.stmt.reader;
  }
  all(parameters: ReadonlyArray<unknown>): unknown[] {
    const rows = this.stmt.all(bindable(parameters));
    return this.booleanColumns.length ? rows.map(this.withBooleans) : rows;
  }
  run(parameters: ReadonlyArray<unknown>) {
    return this.stmt.run(bindable(parameters));
  }
  *iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    for (const row of this.stmt.iterate(bindable(parameters))) yield this.withBooleans(row);
  }
}

export class SqliteConnection implements SqliteDatabase {
  private readonly cache = new Map<string, CachedStatement>();

  constructor(readonly raw: Database.Database) {}

  prepare(sql: string): SqliteStatement {
    let stmt = this.cache.get(sql);
    if (stmt) {
      // Refresh recency: Map iteration order is insertion order, so the first key is the oldest.
      this.cache.delete(sql);
    } else {
      stmt = new CachedStatement(this.raw.prepare(sql));
      if (this.cache.size >= STATEMENT_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    }
    this.cache.set(sql, stmt);
    return stmt;
  }

  close(): void {
    this.cache.clear();
    this.raw.close();
  }
}

/** Opens (creating directories as needed) a SQLite file with the settings a server wants. */
export function openSqlite(path: string): SqliteConnection {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  return new SqliteConnection(db);
}
