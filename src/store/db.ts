/**
 * The store handle: one Kysely instance over SQLite (better-sqlite3) or PostgreSQL (pg), chosen by
 * DATABASE_URL, plus the transaction helper that carries after-commit callbacks (events are
 * published only once their transaction has committed: architecture-anchors §6).
 */
import { Kysely, PostgresDialect, SqliteDialect, sql, type KyselyConfig, type Transaction } from "kysely";
import type pg from "pg";
import { resolve } from "node:path";
import type { DB } from "./schema.js";
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from "./checkpointer.js";
import { LongListPlugin } from "./long-lists.js";
import { WideIntegerPlugin } from "./pg-wide-integers.js";
import { BatchingPool, type BatchStats } from "./pg-statement-batches.js";
import { loadOnFirstUse } from "../lib/load-on-first-use.js";
import { openSqlite, type SqliteConnection } from "./sqlite.js";
import { provideChangeStamps, provideSnapshotStamps, type ChangeStamp } from "./change-stamp.js";
import { errorFields, logLine } from "../lib/log.js";

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
  /** PostgreSQL only: the connection pool's occupancy (GET /metrics). */
  poolStats?(): PoolStats;
  /** PostgreSQL only: statements sent and the round trips that carried them (pg-statement-batches.ts). */
  batchStats?(): BatchStats;
  /** SQLite in a cluster worker: the write turn every transaction waits for first (cluster/write-gate.ts). */
  writeGate?: WriteGate;
  close(): Promise<void>;
}

/** Hands out turns to write, one at a time; `acquire` resolves with the function giving it back. */
export interface WriteGate {
  acquire(): Promise<() => void>;
}

export interface PoolStats {
  /** Connections open, idle among them, and queries waiting for one. */
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** A unit of work: queries go through `db`; `onCommit` callbacks run after a successful commit. */
export interface Tx {
  db: Kysely<DB> | Transaction<DB>;
  dialect: Dialect;
  onCommit(fn: () => void): void;
  /**
   * In a transaction, the store's root Kysely instance (`db` outside one): caches of committed
   * data kept per root (realm-lists.ts) may serve a transaction whose own view proves them current.
   */
  root?: Kysely<DB>;
  /**
   * Outside a transaction: the change stamp of the request these reads serve, taken when it was
   * authenticated (after it began): StampMemo checks its entries against it (change-stamp.ts).
   * Only for a request that writes nothing before these reads: a memo filed under the stamp
   * before its own write would still match it.
   */
  stamp?: ChangeStamp | null;
}

/** The PostgreSQL driver, loaded only by a server that uses PostgreSQL. */
const pgDriver = loadOnFirstUse<typeof pg>("pg");

/** Pool size per process: PostgreSQL's default max_connections (100) fits about 9 processes. */
const PG_POOL_MAX = 10;
/**
 * A PostgreSQL that is down refuses connections at once; one that is cut off (a dead network
 * path) would leave a request waiting for TCP's own timeouts, minutes long. These bounds make
 * such a request fail (503, http/error-handler.ts) instead of hanging (issue 18, item 4).
 */
const PG_CONNECT_TIMEOUT_MS = 5_000;
const PG_QUERY_TIMEOUT_MS = 30_000;

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export interface StoreOptions {
  /** Kysely's query log: the benchmark records the SQL a request runs to replay it as a baseline. */
  log?: KyselyConfig["log"];
  /** SQLite files: WAL checkpoints on a worker thread rather than inside commits (the server's choice: checkpointer.ts). */
  backgroundCheckpoints?: boolean;
  /** `sqlite::memory:` only: start from this serialized database (a migrated image, in tests). */
  sqliteImage?: Buffer;
  /**
   * SQLite: every transaction takes the write lock when it begins (BEGIN IMMEDIATE, sqlite.ts), so
   * processes sharing the file (WORKERS > 1) write one at a time without failing on stale
   * snapshots. The server and the manage commands (which share the file with a live server) choose
   * it; tests on private in-memory stores keep SQLite's deferred transactions.
   */
  writeLockFirst?: boolean;
  /**
   * PostgreSQL: the longest a statement may run, ms (PG_QUERY_TIMEOUT_MS by default, which turns a
   * hung server into a prompt 503). Bulk tools raise it: the benchmark's million-message seed runs
   * single statements of minutes.
   */
  queryTimeoutMs?: number;
}

/** Opens the store named by a DATABASE_URL (`sqlite:path`, `sqlite::memory:`, `postgres://…`). */
export function openStore(url: string, options: StoreOptions = {}): Store {
  if (url.startsWith("sqlite:")) {
    const path = url.slice("sqlite:".length);
    const file = path === ":memory:" ? null : resolve(path);
    const conn = openSqlite(file ?? path, options.sqliteImage);
    conn.writeLockFirst = options.writeLockFirst ?? false;
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: conn }), log: options.log, plugins: [new LongListPlugin("sqlite")] });
    const checkpointer = file && options.backgroundCheckpoints ? new Checkpointer(file) : undefined;
    if (checkpointer) conn.raw.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    provideChangeStamps(db, conn);
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
      max: PG_POOL_MAX,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      query_timeout: options.queryTimeoutMs ?? PG_QUERY_TIMEOUT_MS,
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
    pool.on("error", (err) => logLine("warn", "postgres pool: an idle connection failed", { err: errorFields(err) }));
    // A connection lost while checked out emits 'error' on its client, which the pool does not
    // listen to then: unheard, it would crash the process. The query using it fails and answers
    // 503 (http/error-handler.ts), so the event itself needs no further handling.
    pool.on("connect", (client) => client.on("error", () => undefined));
    const batching = new BatchingPool(pool, pgDriver(), isStoreUnavailable);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: batching as unknown as pg.Pool }), log: options.log, plugins: [new LongListPlugin("postgres"), new WideIntegerPlugin()] });
    provideSnapshotStamps(db);
    return {
      db,
      dialect: "postgres",
      url,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: PG_POOL_MAX }),
      batchStats: () => ({ ...batching.stats }),
      close: () => db.destroy(),
    };
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got ${url}`);
}

/**
 * Resolves once the store answers a trivial query, rejects when it fails or takes longer than
 * `timeoutMs` (start-up and GET /health: a hung database must not hang the caller).
 */
export async function pingStore(store: Store, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([sql`SELECT 1`.execute(store.db), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const PG_UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EPIPE", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);

/**
 * Whether an error means the database could not be reached (as opposed to a bad query): refused
 * or dropped connections, the pool's connect timeout, PostgreSQL shutting down or starting up.
 */
export function isStoreUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && PG_UNAVAILABLE_CODES.has(code)) return true;
  return /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout)/.test(err.message);
}

/**
 * Runs `fn` in one transaction. Callbacks registered with `tx.onCommit` run after the commit, in
 * order, and never when the transaction rolls back.
 */
export async function transaction<T>(store: Store, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const callbacks: Array<() => void> = [];
  // In a cluster on SQLite, the turn comes first: waiting for it blocks nothing (write-gate.ts).
  const release = store.writeGate ? await store.writeGate.acquire() : null;
  // Only a transaction that wrote rows gives the WAL checkpointer anything to copy: a read-only
  // one must not start its thread (a V8 isolate, ~7 MB) for a minute.
  const watched = store.checkpointer ? store.sqlite : undefined;
  const changesBefore = watched?.totalChanges();
  let result: T;
  try {
    result = await store.db.transaction().execute((trx) =>
      fn({ db: trx, dialect: store.dialect, onCommit: (cb) => callbacks.push(cb), root: store.db }),
    );
  } finally {
    release?.();
  }
  if (watched && watched.totalChanges() !== changesBefore) store.checkpointer?.wake();
  // The data is committed: a failing callback (a bus listener) must neither turn the response
  // into an error nor stop the remaining callbacks.
  for (const cb of callbacks) {
    try {
      cb();
    } catch (err) {
      logLine("error", "after-commit callback failed", { err: errorFields(err) });
    }
  }
  return result;
}

/**
 * A read-only (autocommit) unit for queries that need no transaction. Never use it while a
 * transaction is open in the same flow: SQLite has one connection, and it would wait forever.
 */
export function readTx(store: Store, stamp?: ChangeStamp | null): Tx {
  return {
    db: store.db,
    dialect: store.dialect,
    stamp,
    onCommit: () => {
      throw new Error("onCommit needs a transaction: use transaction(store, …)");
    },
  };
}
