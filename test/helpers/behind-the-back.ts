/**
 * Runs one SQL statement outside Parley's code and its Kysely instance — on another connection on
 * PostgreSQL, on the raw SQLite connection otherwise — as another Parley process or a `manage`
 * command would. Tests of the in-memory caches (auth rows, realm lists) change data this way and
 * expect the very next request to see it. `$1`-style placeholders; booleans are bound as SQLite's 1/0.
 */
import pg from "pg";
import type { TestRealm } from "./fixtures.js";

export async function behindTheBack(t: TestRealm, statement: string, params: unknown[]): Promise<void> {
  const sqlite = t.deps.store.sqlite;
  if (sqlite) {
    sqlite.raw.prepare(statement.replace(/\$\d+/g, "?")).run(...params.map((p) => (typeof p === "boolean" ? Number(p) : p)));
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
