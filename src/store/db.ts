/**
 * The store handle: one Kysely instance over SQLite (better-sqlite3) or PostgreSQL (pg), chosen by
 * DATABASE_URL, plus the transaction helper that carries after-commit callbacks (events are
 * published only once their transaction has committed: architecture-anchors §6).
 */
import { Kysely, PostgresDialect, SqliteDialect, type KyselyConfig, type Transaction } from "kysely";
import type pg from "pg";
import { resolve } from "node:path";
import type { DB } from "./schema.js";
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from "./checkpointer.js";
import { LongListPlugin } from "./long-lists.js";
import { WideIntegerPlugin } from "./pg-wide-integers.js";
import { loadOnFirstUse } from "../lib/load-on-first-use.js";
import { openSqlite, type SqliteConnection } from "./sqlite.js";

export type Dialect = "sqlite" | "postgres";

export interface Store {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The DATABASE_URL it was opened with (pg_dump and pg_restore connect with it: backup.ts). */
  url: string;
  /** SQLite only: the connection itself, for its online backup API (backup.ts). */
  sqlite?: SqliteConnection;
  /** SQLite with background checkpoints only: the worker copying the WAL into the file (checkpointer.ts). */
  checkpointer?: Checkpointer;
  close(): Promise<void>;
}

/** A unit of work: queries go through `db`; `onCommit` callbacks run after a successful commit. */
export interface Tx {
  db: Kysely<DB> | Transaction<DB>;
  dialect: Dialect;
  onCommit(fn: () => void): void;
}

/** The PostgreSQL driver, loaded only by a server that uses PostgreSQL. */
const pgDriver = loadOnFirstUse<typeof pg>("pg");

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export interface StoreOptions {
  /** Kysely's query log: the benchmark records the SQL a request runs to replay it as a baseline. */
  log?: KyselyConfig["log"];
  /** SQLite files: WAL checkpoints on a worker thread rather than inside commits (the server's choice: checkpointer.ts). */
  backgroundCheckpoints?: boolean;
}

/** Opens the store named by a DATABASE_URL (`sqlite:path`, `sqlite::memory:`, `postgres://…`). */
export function openStore(url: string, options: StoreOptions = {}): Store {
  if (url.startsWith("sqlite:")) {
    const path = url.slice("sqlite:".length);
    const file = path === ":memory:" ? null : resolve(path);
    const conn = openSqlite(file ?? path);
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: conn }), log: options.log, plugins: [new LongListPlugin("sqlite")] });
    const checkpointer = file && options.backgroundCheckpoints ? new Checkpointer(file) : undefined;
    if (checkpointer) conn.raw.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    return {
      db,
      dialect: "sqlite",
      url,
      sqlite: conn,
      checkpointer,
      async close() {
        await checkpointer?.close();
        await db.destroy();
      },
    };
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const { Pool, types } = pgDriver();
    const pool = new Pool({
      connectionString: url,
      max: 10,
      // Counts and ids are BIGINT; they fit a JS number for any realistic deployment.
      types: {
        getTypeParser: (oid: number, format?: string) =>
          oid === INT8_OID || oid === NUMERIC_OID
            ? (v: string) => Number(v)
            : types.getTypeParser(oid, format as "text"),
      },
    });
    // An idle connection the server drops (restart, failover, a forced DROP DATABASE) surfaces as a
    // pool 'error' event; unhandled, it would crash the process. The pool replaces the client.
    pool.on("error", (err) => console.error("postgres pool: idle client error", err.message));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: options.log, plugins: [new LongListPlugin("postgres"), new WideIntegerPlugin()] });
    return { db, dialect: "postgres", url, close: () => db.destroy() };
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got ${url}`);
}

/**
 * Runs `fn` in one transaction. Callbacks registered with `tx.onCommit` run after the commit, in
 * order, and never when the transaction rolls back.
 */
export async function transaction<T>(store: Store, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const callbacks: Array<() => void> = [];
  const result = await store.db.transaction().execute((trx) =>
    fn({ db: trx, dialect: store.dialect, onCommit: (cb) => callbacks.push(cb) }),
  );
  store.checkpointer?.wake();
  // The data is committed: a failing callback (a bus listener) must neither turn the response
  // into an error nor stop the remaining callbacks.
  for (const cb of callbacks) {
    try {
      cb();
    } catch (err) {
      console.error("after-commit callback failed", err);
    }
  }
  return result;
}

/**
 * A read-only (autocommit) unit for queries that need no transaction. Never use it while a
 * transaction is open in the same flow: SQLite has one connection, and it would wait forever.
 */
export function readTx(store: Store): Tx {
  return {
    db: store.db,
    dialect: store.dialect,
    onCommit: () => {
      throw new Error("onCommit needs a transaction: use transaction(store, …)");
    },
  };
}
