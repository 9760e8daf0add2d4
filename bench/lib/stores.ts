/**
 * The run's stores: SQLite files in a temporary directory, or fresh PostgreSQL databases (created at
 * the start, dropped at the end) on the server named by TEST_DATABASE_URL. A seeded store is copied
 * rather than seeded twice: a file copy, or CREATE DATABASE … TEMPLATE.
 */
import pg from "pg";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { testStoreUrls } from "../../src/config.js";
import { openStore } from "../../src/store/db.js";
import { migrateToLatest } from "../../src/store/migrate.js";

export type StoreKind = "sqlite" | "postgres";

export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

export interface BenchStore {
  kind: StoreKind;
  url: string;
  /** SQLite: the file; PostgreSQL: the database name. */
  name: string;
  drop(): Promise<void>;
}

export function postgresBaseUrl(): string {
  return testStoreUrls().postgres ?? DEFAULT_POSTGRES_URL;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresBaseUrl() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Whether the PostgreSQL server answers (S10 and --store postgres need it). */
export async function postgresAvailable(): Promise<boolean> {
  try {
    await admin("SELECT 1");
    return true;
  } catch {
    return false;
  }
}

function databaseUrl(name: string): string {
  const url = new URL(postgresBaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

function handle(kind: StoreKind, dir: string, name: string): BenchStore {
  if (kind === "sqlite") {
    const file = join(dir, `${name}.sqlite3`);
    // The files go with the run's temporary directory.
    return { kind, url: `sqlite:${file}`, name: file, drop: async () => {} };
  }
  const database = `parley_bench_${process.pid}_${name}`;
  return { kind, url: databaseUrl(database), name: database, drop: () => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`) };
}

/** A new, migrated, empty store. */
export async function createStore(kind: StoreKind, dir: string, name: string): Promise<BenchStore> {
  const s = handle(kind, dir, name);
  if (kind === "postgres") await admin(`CREATE DATABASE ${s.name}`);
  const store = openStore(s.url);
  try {
    await migrateToLatest(store);
  } finally {
    await store.close();
  }
  return s;
}

/** A copy of a store nobody has open (SQLite's WAL is checkpointed into the file when the last connection closes). */
export async function copyStore(from: BenchStore, dir: string, name: string): Promise<BenchStore> {
  const s = handle(from.kind, dir, name);
  if (from.kind === "sqlite") copyFileSync(from.name, s.name);
  else await admin(`CREATE DATABASE ${s.name} TEMPLATE ${from.name}`);
  return s;
}
