/**
 * Test stores: SQLite always; PostgreSQL too when TEST_DATABASE_URL is set, each test store in a
 * fresh database of its own (dropped on cleanup, or by the runner: dropDatabase). Not a schema: Kysely's Migrator looks for its
 * bookkeeping tables in every schema of the database, so a store migrating while another test file's
 * schema exists would skip creating them and fail.
 *
 * Migrating is most of the cost of a fresh store (seconds on PostgreSQL under load), and every test
 * opens one, so stores start from an already migrated copy: on PostgreSQL a template database named
 * after a hash of the migrations (built once, under an advisory lock, by whichever test process needs
 * it first), on SQLite a serialized image built once per process. `migrateToLatest` still runs on
 * each new store and finds nothing to do — or applies what a stale copy lacks.
 */
import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { testStoreUrls } from "../../src/config.js";
import { openStore, type Store } from "../../src/store/db.js";
import { migrateToLatest } from "../../src/store/migrate.js";

export type StoreKind = "sqlite" | "postgres";

const urls = testStoreUrls();

export const STORE_KINDS: StoreKind[] = urls.postgres ? ["sqlite", "postgres"] : ["sqlite"];

export interface TestStore {
  store: Store;
  url: string;
  cleanup(): Promise<void>;
}

export interface TestStoreOptions {
  /**
   * SQLite: a file in a temporary directory instead of memory, so that a second connection can
   * write to it as another process would (behind-the-back.ts).
   */
  sqliteFile?: boolean;
  /** Start from a copy of this store rather than from an empty one (not with `sqliteFile`). */
  from?: StoreSnapshot;
}

/** What a store held when `snapshotTestStore` took it, to open copies of (`from`). */
export type StoreSnapshot = { kind: "sqlite"; image: Buffer } | { kind: "postgres"; template: string };

let counter = 0;

/** A migrated, empty store; on PostgreSQL (and a SQLite file) `url` opens the same database again. */
export async function openTestStore(kind: StoreKind, options: TestStoreOptions = {}): Promise<TestStore> {
  if (kind === "sqlite" && options.sqliteFile) {
    const dir = mkdtempSync(join(tmpdir(), "parley-test-"));
    const url = `sqlite:${join(dir, "store.sqlite3")}`;
    const store = openStore(url);
    await migrateToLatest(store);
    return {
      store,
      url,
      async cleanup() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (options.from && options.from.kind !== kind) throw new Error(`a ${options.from.kind} snapshot cannot open a ${kind} store`);
  if (kind === "sqlite") {
    const url = "sqlite::memory:";
    const image = options.from?.kind === "sqlite" ? options.from.image : await migratedSqliteImage();
    const store = openStore(url, { sqliteImage: image });
    await migrateToLatest(store);
    return { store, url, cleanup: () => store.close() };
  }
  const template = options.from?.kind === "postgres" ? options.from.template : await migratedPostgresTemplate();
  const fresh = await freshPostgresStore(template);
  await migrateToLatest(fresh.store);
  return fresh;
}

/**
 * Whether `snapshotTestStore` can take PostgreSQL stores: only under scripts/run-tests.mjs, which
 * drops the template database it leaves once this process has exited.
 */
export const CAN_SNAPSHOT_POSTGRES = Boolean(process.env.PARLEY_TEST_DROP_QUEUE);

/**
 * Turns an in-memory SQLite test store (left open) or a PostgreSQL one (closed, and kept as a
 * template database until this process ends: CAN_SNAPSHOT_POSTGRES) into a snapshot that
 * `openTestStore(kind, { from })` opens copies of.
 */
export async function snapshotTestStore(kind: StoreKind, ts: TestStore): Promise<StoreSnapshot> {
  if (kind === "sqlite") {
    if (!ts.store.sqlite || ts.url !== "sqlite::memory:") throw new Error("only in-memory SQLite test stores are snapshotted");
    return { kind, image: ts.store.sqlite.raw.serialize() };
  }
  const queue = process.env.PARLEY_TEST_DROP_QUEUE;
  if (!queue) throw new Error("PostgreSQL test stores are snapshotted only under scripts/run-tests.mjs");
  await ts.store.close();
  const template = new URL(ts.url).pathname.slice(1);
  const base = urls.postgres as string;
  // Copied by the tests of this process until it exits; then the runner drops it with the rest.
  process.once("exit", () => appendFileSync(queue, `${base}\t${template}\n`));
  return { kind, template };
}

let sqliteImage: Promise<Buffer> | null = null;

function migratedSqliteImage(): Promise<Buffer> {
  sqliteImage ??= (async () => {
    const store = openStore("sqlite::memory:");
    await migrateToLatest(store);
    const image = store.sqlite!.raw.serialize();
    await store.close();
    return image;
  })();
  return sqliteImage;
}

/** Changes whenever a migration (or the code running them) changes, so a template is never stale. */
function migrationsHash(): string {
  const storeDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "store");
  const hash = createHash("sha256");
  const files = [join(storeDir, "migrate.ts"), ...readdirSync(join(storeDir, "migrations")).sort().map((f) => join(storeDir, "migrations", f))];
  for (const file of files) hash.update(file.slice(storeDir.length)).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

let postgresTemplate: Promise<string> | null = null;

/** The name of a migrated template database, built by the first process to need it. */
function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= (async () => {
    const base = urls.postgres as string;
    const template = `parley_tmpl_${migrationsHash()}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      // Session-level: released by unlock or when this connection ends, whatever happens.
      await admin.query("SELECT pg_advisory_lock(hashtext($1))", [template]);
      const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
      if (found.rowCount === 0) {
        const building = `${template}_build`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${building}`);
        const store = openStore(databaseUrl(base, building));
        try {
          await migrateToLatest(store);
        } finally {
          await store.close();
        }
        // Renamed only when complete, so no process ever copies a half-migrated template.
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
        await admin.query(`ALTER DATABASE ${template} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      }
    } finally {
      await admin.end();
    }
    return template;
  })();
  return postgresTemplate;
}

/** Percent-encoded by hand: URLSearchParams writes spaces as "+", which libpq (pg_dump) keeps literally. */
function withOptions(url: string, options: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(options)}`;
}

function databaseUrl(base: string, database: string): string {
  const target = new URL(base);
  target.pathname = `/${database}`;
  return target.toString();
}

/**
 * A store nothing was ever written to (not even migrations): a SQLite file in `dir`, or a fresh
 * PostgreSQL database. Backups restore into such stores, and older schemas are built in them.
 */
export async function openEmptyStore(kind: StoreKind, dir: string): Promise<TestStore> {
  if (kind === "sqlite") {
    const url = `sqlite:${dir}/empty-${counter++}.sqlite3`;
    const store = openStore(url);
    return { store, url, cleanup: () => store.close() };
  }
  return freshPostgresStore();
}

async function freshPostgresStore(template?: string): Promise<TestStore> {
  const base = urls.postgres as string;
  const database = `parley_test_${process.pid}_${Date.now()}_${counter++}`;
  await createDatabase(base, database, template);
  // Test data need not survive a PostgreSQL crash: commits skip waiting for the WAL flush (an fsync
  // each, the larger part of a small transaction's time on this disk). Every connection to the test
  // database gets it, the servers tests spawn included.
  const url = withOptions(databaseUrl(base, database), "-c synchronous_commit=off");
  const store = openStore(url);
  return {
    store,
    url,
    async cleanup() {
      await store.close();
      await dropDatabase(base, database);
    },
  };
}

/**
 * Drops a test database, or leaves it to scripts/run-tests.mjs: PostgreSQL checkpoints the whole
 * cluster for every DROP DATABASE and makes it wait (a second or more under load, paid by every
 * test's cleanup, and slowing every other test meanwhile). The runner names a queue file in
 * PARLEY_TEST_DROP_QUEUE and drops what is queued there in batches, whose checkpoints PostgreSQL
 * shares. A queued database is never opened again: its name is unique to this process.
 */
async function dropDatabase(base: string, database: string): Promise<void> {
  const queue = process.env.PARLEY_TEST_DROP_QUEUE;
  if (queue) appendFileSync(queue, `${base}\t${database}\n`);
  else await adminQuery(base, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}

/** PostgreSQL refuses to copy a template another session is connected to (55006): an autovacuum worker may be, briefly. */
async function createDatabase(base: string, database: string, template?: string): Promise<void> {
  if (!template) return adminQuery(base, `CREATE DATABASE ${database}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await adminQuery(base, `CREATE DATABASE ${database} TEMPLATE ${template}`);
    } catch (err) {
      if ((err as { code?: string }).code !== "55006" || attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
