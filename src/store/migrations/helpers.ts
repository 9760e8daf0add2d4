/**
 * Column helpers shared by migrations, hiding the few type differences between SQLite and
 * PostgreSQL (serial ids, booleans). Migrations are frozen once released: add new ones, never edit.
 */
import { sql, type CreateTableBuilder, type Kysely } from "kysely";
import type { Dialect } from "../db.js";

export type AnyDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Table = CreateTableBuilder<string, any>;

export interface Migration {
  up(db: AnyDb, dialect: Dialect): Promise<void>;
}

/** Integer primary key: AUTOINCREMENT on SQLite (ids never reused), identity on PostgreSQL. */
export function withId(t: Table, dialect: Dialect, big = false): Table {
  return dialect === "sqlite"
    ? t.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    : t.addColumn("id", big ? "bigserial" : "serial", (c) => c.primaryKey());
}

export function boolType(dialect: Dialect) {
  return dialect === "sqlite" ? "integer" : "boolean";
}

export function bool(t: Table, dialect: Dialect, name: string, dflt: boolean | null): Table {
  return t.addColumn(name, boolType(dialect), (c) => (dflt === null ? c : c.notNull().defaultTo(dflt)));
}

/** A nullable reference to a user group (group-setting values point at a group row). */
export function groupRef(t: Table, name: string): Table {
  return t.addColumn(name, "integer", (c) => c.references("user_groups.id"));
}

export async function index(db: AnyDb, name: string, table: string, columns: string[], unique = false) {
  let b = db.schema.createIndex(name).on(table).columns(columns);
  if (unique) b = b.unique();
  await b.execute();
}

/** An index over expressions (e.g. lower(name)), written in SQL both engines accept. */
export async function exprIndex(db: AnyDb, name: string, table: string, expr: string, unique = false) {
  await sql
    .raw(`CREATE ${unique ? "UNIQUE " : ""}INDEX ${name} ON ${table} (${expr})`)
    .execute(db);
}
