/**
 * Many rows of one shape inserted without Kysely's query builder. A send writes one `user_messages`
 * row per recipient; built as Kysely nodes and compiled anew each time, the multi-row INSERT cost
 * more of the main thread than SQLite took to run it (issue 21, S12: ~2.7 ms of JavaScript per send
 * to 200–1,000 recipients). Here the SQL text is written once per (dialect, table, columns, rows
 * per statement) and the values are bound as a flat list.
 *
 * Rows go in statements of a few fixed sizes (the largest that fits, then smaller ones), so a
 * process holds at most SIZES.length texts per table however the recipient counts vary: each is
 * prepared once (SQLite's statement cache) and never crowds the cache out. Values outside
 * PostgreSQL's INTEGER range take the builder instead, as in prepared.ts, so the store's plugins
 * see them.
 */
import { CompiledQuery, type Kysely } from "kysely";
import type { Dialect, Tx } from "./db.js";
import { wideInteger } from "./prepared.js";
import type { DB } from "./schema.js";

const SIZES = [512, 128, 32, 8, 2, 1];
/** Rows per statement on the builder's path: well under SQLite's bound-parameter limit. */
const BUILDER_CHUNK = 2000;

const texts = new Map<string, string>();

function insertText(dialect: Dialect, table: string, columns: readonly string[], rows: number): string {
  const key = `${dialect}\u0000${table}\u0000${columns.join(",")}\u0000${rows}`;
  let text = texts.get(key);
  if (text === undefined) {
    let n = 0;
    const placeholder = dialect === "postgres" ? () => `$${++n}` : () => "?";
    const tuples = Array.from({ length: rows }, () => `(${columns.map(placeholder).join(", ")})`);
    text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values ${tuples.join(", ")}`;
    texts.set(key, text);
  }
  return text;
}

/** Inserts `rows` into `table` (only `columns` are written, in that order). */
export async function insertRows<T extends keyof DB, R extends Record<string, unknown>>(tx: Tx, table: T, columns: ReadonlyArray<keyof R & string>, rows: readonly R[]): Promise<void> {
  if (rows.some((row) => columns.some((c) => wideInteger(row[c])))) {
    for (let i = 0; i < rows.length; i += BUILDER_CHUNK) {
      await (tx.db as Kysely<DB>).insertInto(table).values(rows.slice(i, i + BUILDER_CHUNK) as never).execute();
    }
    return;
  }
  for (let i = 0; i < rows.length; ) {
    const size = SIZES.find((s) => s <= rows.length - i)!;
    const values: unknown[] = [];
    for (let k = i; k < i + size; k++) for (const c of columns) values.push(rows[k][c]);
    await tx.db.executeQuery(CompiledQuery.raw(insertText(tx.dialect, table, columns, size), values));
    i += size;
  }
}
