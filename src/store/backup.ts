/**
 * Copies of the database itself (issue 9, item 6); the archive around them is cli/backup.ts.
 * - SQLite: the online backup API of the store's own connection, all pages in one step, so the
 *   copy is one consistent snapshot even while a server writes to the file (WAL readers do not
 *   block writers, and a single step never restarts). Restoring copies the pages back the same way.
 * - PostgreSQL: `pg_dump -Fc` of the store's schema and `pg_restore --clean --if-exists` into it.
 *   The password travels in PGPASSWORD rather than on the command line, where `ps` would show it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { childEnvironment } from "../config.js";
import type { Store } from "./db.js";

const run = promisify(execFile);
/** sqlite3_backup_step's page count meaning "everything" (a positive int32). */
const ALL_PAGES = 0x7fffffff;

/** Writes a copy of the store's database to `dest` (a new file). */
export async function backupStore(store: Store, dest: string): Promise<void> {
  if (store.dialect === "sqlite") {
    await sqliteConnection(store).raw.backup(dest, { progress: () => ALL_PAGES });
    return;
  }
  const schema = await currentSchema(store);
  await pgTool("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--schema=${schema}`, `--file=${dest}`], store.url);
}

/** Replaces the store's database with the copy in `source` (made by backupStore, same dialect). */
export async function restoreStore(store: Store, source: string): Promise<void> {
  if (store.dialect === "sqlite") {
    const path = sqliteConnection(store).raw.name;
    const copy = new Database(source, { readonly: true, fileMustExist: true });
    try {
      await copy.backup(path, { progress: () => ALL_PAGES });
    } finally {
      copy.close();
    }
    return;
  }
  await pgTool("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", source], store.url);
}

function sqliteConnection(store: Store) {
  if (!store.sqlite || store.sqlite.raw.memory) throw new Error("backups need a SQLite file, not an in-memory database");
  return store.sqlite;
}

async function currentSchema(store: Store): Promise<string> {
  const result = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(store.db);
  return result.rows[0].schema;
}

/** Runs a PostgreSQL client tool against the database of `url`; its stderr becomes the error. */
async function pgTool(tool: "pg_dump" | "pg_restore", args: string[], url: string): Promise<void> {
  const target = new URL(url);
  const password = decodeURIComponent(target.password);
  target.password = "";
  const env = childEnvironment(password ? { PGPASSWORD: password } : {});
  try {
    await run(tool, [...args, `--dbname=${target.toString()}`], { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`${tool} failed: ${(err.stderr || err.message).trim()}`, { cause: e });
  }
}
