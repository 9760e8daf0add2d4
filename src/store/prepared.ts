/**
 * Queries of a fixed shape built and compiled once per dialect instead of once per call. Kysely
 * builds an immutable node tree and compiles it to SQL on every execution: 7–10 µs of a hot
 * 15 µs statement (docs/PERFORMANCE.md). A prepared query is written with the ordinary builder;
 * `arg("name")` marks where a value goes, and each call fills the compiled parameter list in.
 *
 *   const byKey = prepared<{ key: string }, UserRow>((db, arg) =>
 *     db.selectFrom("users").selectAll().where("api_key", "=", arg("key")));
 *   const rows = await byKey(tx, { key });
 *
 * Only for queries whose SQL does not depend on the arguments (no IN lists, no optional
 * clauses): an argument is a single bound value. A call with an integer argument outside
 * PostgreSQL's INTEGER range is built afresh instead, so the store's plugins (pg-wide-integers.ts)
 * see its value as they see any other query's.
 */
import { CompiledQuery, type Compilable, type Kysely } from "kysely";
import type { Dialect, Tx } from "./db.js";
import type { DB } from "./schema.js";

/** Where an argument goes in the compiled parameter list. */
class Slot {
  constructor(readonly name: string) {}
}

type Args = Record<string, unknown>;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Outside PostgreSQL's INTEGER: such values go through the builder, where pg-wide-integers.ts sees them. */
export const wideInteger = (v: unknown) => typeof v === "number" && (v < INT32_MIN || v > INT32_MAX);
type ArgMarker<A extends Args> = <K extends keyof A & string>(name: K) => A[K];

export type PreparedQuery<A extends Args, R> = (tx: Tx, args: A) => Promise<R[]>;

export function prepared<A extends Args, R>(build: (db: Kysely<DB>, arg: ArgMarker<A>) => Compilable<R>): PreparedQuery<A, R> {
  // The SQL text and parameter template for each dialect, filled on first use: pure functions of
  // the query's shape, so one per process is right whatever the store.
  const compiled = new Map<Dialect, { sql: string; parameters: readonly unknown[] }>();
  const marker = ((name: string) => new Slot(name)) as unknown as ArgMarker<A>;
  return async (tx, args) => {
    if (Object.values(args).some(wideInteger)) {
      return (await tx.db.executeQuery(build(tx.db as Kysely<DB>, ((name: string) => args[name]) as ArgMarker<A>))).rows;
    }
    let c = compiled.get(tx.dialect);
    if (!c) {
      const q = build(tx.db as Kysely<DB>, marker).compile();
      c = { sql: q.sql, parameters: q.parameters };
      compiled.set(tx.dialect, c);
    }
    const parameters = c.parameters.map((p) => (p instanceof Slot ? args[p.name] : p));
    const result = await tx.db.executeQuery<R>(CompiledQuery.raw(c.sql, parameters));
    return result.rows;
  };
}
