/**
 * A cheap, exact "did anything change?" probe for the fuzz suite's store (issue 9, item 2: a failed
 * request changes nothing). Row-level triggers on every table append the table's name to
 * `fuzz_change_log`; the fingerprint is the log's highest id. The log is transactional, so a write
 * that was rolled back leaves no trace (SQLite's total_changes() would count it), and it needs one
 * indexed read per request on either store instead of hashing every table. Test stores only: the
 * server never sees these objects.
 */
import { sql } from "kysely";
import type { Store } from "../../src/store/db.js";

const LOG = "fuzz_change_log";

async function userTables(store: Store): Promise<string[]> {
  let names: string[];
  if (store.dialect === "sqlite") {
    const { rows } = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(store.db);
    // SQLite refuses triggers on full-text indexes (virtual tables) and their shadow tables; the
    // index only mirrors rows of real tables, which are watched.
    const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name);
    names = rows.map((r) => r.name).filter((name) => !virtual.some((v) => name === v || name.startsWith(`${v}_`)));
  } else {
    const { rows } = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(store.db);
    names = rows.map((r) => r.name);
  }
  // Kysely's migration bookkeeping is not application state.
  return names.filter((name) => name !== LOG && !name.startsWith("kysely_"));
}

/** Creates the log and a trigger per table and operation; call once, after migrating. */
export async function installChangeLog(store: Store): Promise<void> {
  const tables = await userTables(store);
  if (store.dialect === "sqlite") {
    await sql.raw(`CREATE TABLE ${LOG} (id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL)`).execute(store.db);
    for (const table of tables) {
      for (const op of ["INSERT", "UPDATE", "DELETE"]) {
        await sql
          .raw(`CREATE TRIGGER fuzz_${op.toLowerCase()}_${table} AFTER ${op} ON "${table}" BEGIN INSERT INTO ${LOG} (tbl) VALUES ('${table}'); END`)
          .execute(store.db);
      }
    }
    return;
  }
  await sql.raw(`CREATE TABLE ${LOG} (id BIGSERIAL PRIMARY KEY, tbl TEXT NOT NULL)`).execute(store.db);
  await sql
    .raw(`CREATE FUNCTION fuzz_log_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO ${LOG} (tbl) VALUES (TG_TABLE_NAME); RETURN NULL; END $$`)
    .execute(store.db);
  for (const table of tables) {
    await sql
      .raw(`CREATE TRIGGER fuzz_log AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION fuzz_log_change()`)
      .execute(store.db);
  }
}

/** The store's fingerprint: equal before and after a request iff it committed no row change. */
export async function storeFingerprint(store: Store): Promise<number> {
  const { rows } = await sql<{ last: number | null }>`SELECT max(id) AS last FROM ${sql.table(LOG)}`.execute(store.db);
  return Number(rows[0]?.last ?? 0);
}

/** Which tables changed since `fingerprint`, with row counts: the message of a failed check. */
export async function changesSince(store: Store, fingerprint: number): Promise<Record<string, number>> {
  const { rows } = await sql<{ tbl: string; n: number }>`SELECT tbl, count(*) AS n FROM ${sql.table(LOG)}
    WHERE id > ${fingerprint} GROUP BY tbl`.execute(store.db);
  return Object.fromEntries(rows.map((r) => [r.tbl, Number(r.n)]));
}
