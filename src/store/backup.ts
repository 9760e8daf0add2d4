/**
 * Copies of the database itself (issue 9, item 6); the archive around them is cli/backup.ts.
 * - SQLite: the online backup API of the store's own connection, all pages in one step, so the
 *   copy is one consistent snapshot even while a server writes to the file (WAL readers do not
 *   block writers, and a single step never restarts). Restoring copies the pages back the same way.
 * - PostgreSQL: `pg_dump -Fc` of the store's schema. Restoring empties the schema and replays the
 *   dump in one psql transaction: `pg_restore --clean` drops only what the dump holds and then
 *   the schema itself, which fails ("cannot drop schema public") as soon as the target holds a
 *   table the dump does not (a database a newer version migrated), so the dump's own CREATE SCHEMA
 *   is left out and everything in the schema is dropped first. A failure rolls back: the database
 *   is as it was. The password travels in PGPASSWORD rather than on the command line, where `ps`
 *   would show it.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
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
  // `pg_restore --list` reads the whole table of contents: a damaged file fails here, before any change.
  const contents = await pgTool("pg_restore", ["--list", source]);
  const dir = dirname(source);
  const list = join(dir, "restore.list");
  writeFileSync(list, contents.split("\n").filter((line) => !/^\d+; \d+ \d+ (SCHEMA - |COMMENT - SCHEMA )/.test(line)).join("\n"));
  const script = join(dir, "restore.sql");
  await pgTool("pg_restore", ["--no-owner", "--no-privileges", `--use-list=${list}`, `--file=${script}`, source]);
  const prelude = join(dir, "empty-schema.sql");
  writeFileSync(prelude, EMPTY_CURRENT_SCHEMA);
  await pgTool("psql", ["--quiet", "--no-psqlrc", "--single-transaction", "--set=ON_ERROR_STOP=1", `--file=${prelude}`, `--file=${script}`], store.url);
}

/** Drops every table, sequence, view and function of the connection's schema (the schema stays). */
const EMPTY_CURRENT_SCHEMA = `DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT c.relname, c.relkind FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
  LOOP
    EXECUTE format('DROP %s IF EXISTS %I CASCADE',
      CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
      r.relname);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS fn FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace LOOP
    EXECUTE format('DROP FUNCTION IF EXISTS %s CASCADE', r.fn);
  END LOOP;
  FOR r IN SELECT t.typname FROM pg_type t WHERE t.typnamespace = current_schema()::regnamespace AND t.typtype IN ('e', 'd', 'c')
    AND NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.reltype = t.oid) LOOP
    EXECUTE format('DROP TYPE IF EXISTS %I CASCADE', r.typname);
  END LOOP;
END $$;
`;

function sqliteConnection(store: Store) {
  if (!store.sqlite || store.sqlite.raw.memory) throw new Error("backups need a SQLite file, not an in-memory database");
  return store.sqlite;
}

async function currentSchema(store: Store): Promise<string> {
  const result = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(store.db);
  return result.rows[0].schema;
}

/**
 * Runs a PostgreSQL client tool, against the database of `url` when given; returns its stdout,
 * and its stderr becomes the error.
 */
async function pgTool(tool: "pg_dump" | "pg_restore" | "psql", args: string[], url?: string): Promise<string> {
  let env = childEnvironment({});
  const connection: string[] = [];
  if (url) {
    const target = new URL(url);
    const password = decodeURIComponent(target.password);
    target.password = "";
    env = childEnvironment(password ? { PGPASSWORD: password } : {});
    connection.push(`--dbname=${target.toString()}`);
  }
  try {
    return (await run(tool, [...args, ...connection], { env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`${tool} failed: ${(err.stderr || err.message).trim()}`, { cause: e });
  }
}
