/**
 * Runs one SQL statement outside Parley's code and its Kysely instance — on another connection on
 * PostgreSQL and on a SQLite file (as another Parley process or a `manage` command would), on the
 * raw connection of an in-memory SQLite store (which no other connection can open). Tests of the in-memory caches (auth rows, realm lists) change data this way and
 * expect the very next request to see it. `$1`-style placeholders; booleans are bound as SQLite's 1/0.
 */
import Database from "better-sqlite3";
import pg from "pg";
import type { TestRealm } from "./fixtures.js";

export async function behindTheBack(t: TestRealm, statement: string, params: unknown[]): Promise<void> {
  const sqlite = t.deps.store.sqlite;
  if (sqlite) {
    const other = sqlite.raw.memory ? null : new Database(sqlite.raw.name);
    try {
      (other ?? sqlite.raw).prepare(statement.replace(/\$\d+/g, "?")).run(...params.map((p) => (typeof p === "boolean" ? Number(p) : p)));
    } finally {
      other?.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: t.testStore.url });
  await client.connect();
  try {
    await client.query(statement, params);
  } finally {
    await client.end();
  }
}
