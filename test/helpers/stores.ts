/**
 * Test stores: SQLite always; PostgreSQL too when TEST_DATABASE_URL is set, each test store in a
 * fresh database of its own (dropped on cleanup). Not a schema: Kysely's Migrator looks for its
 * bookkeeping tables in every schema of the database, so a store migrating while another test file's
 * schema exists would skip creating them and fail.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
}

let counter = 0;

/** The store at `url`, migrated; its cleanup closes it, then runs `after` (removing what held it). */
async function migrated(url: string, after: () => unknown = () => undefined): Promise<TestStore> {
  const store = openStore(url);
  await migrateToLatest(store);
  return {
    store,
    url,
    async cleanup() {
      await store.close();
      await after();
    },
  };
}

/** A migrated, empty store; on PostgreSQL (and a SQLite file) `url` opens the same database again. */
export async function openTestStore(kind: StoreKind, options: TestStoreOptions = {}): Promise<TestStore> {
  if (kind === "sqlite" && options.sqliteFile) {
    const dir = mkdtempSync(join(tmpdir(), "parley-test-"));
    return migrated(`sqlite:${join(dir, "store.sqlite3")}`, () => rmSync(dir, { recursive: true, force: true }));
  }
  if (kind === "sqlite") return migrated("sqlite::memory:");
  const base = urls.postgres as string;
  const database = `parley_test_${process.pid}_${Date.now()}_${counter++}`;
  await adminQuery(base, `CREATE DATABASE ${database}`);
  const target = new URL(base);
  target.pathname = `/${database}`;
  return migrated(target.toString(), () => adminQuery(base, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
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
