/**
 * A version number per users and realms row, kept by triggers, so a process can keep those rows
 * in memory and check with one small indexed read that they are still current (auth-rows.ts:
 * every authenticated request needs its user and realm; issue 8). Triggers rather than code,
 * because every writer must bump it: actions, `manage` commands, another Parley process, a
 * hand-run SQL statement. Inserts and deletes bump it too, so a row that reappears under an old
 * id can never match a version remembered for the one before.
 */
import { sql } from "kysely";
import type { Migration } from "./helpers.js";

/** The tables whose rows authentication caches (auth-rows.ts). */
const VERSIONED_TABLES = ["users", "realms"];

export const rowVersions: Migration = {
  async up(db, d) {
    await db.schema
      .createTable("row_versions")
      .addColumn("table_name", "text", (c) => c.notNull())
      .addColumn("row_id", "bigint", (c) => c.notNull())
      .addColumn("version", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("row_versions_pkey", ["table_name", "row_id"])
      .execute();
    if (d === "sqlite") {
      for (const table of VERSIONED_TABLES) {
        for (const [op, row] of [["INSERT", "NEW"], ["UPDATE", "NEW"], ["DELETE", "OLD"]]) {
          await sql
            .raw(
              `CREATE TRIGGER ${table}_row_version_${op.toLowerCase()} AFTER ${op} ON ${table} FOR EACH ROW BEGIN ` +
                `INSERT INTO row_versions (table_name, row_id, version) VALUES ('${table}', ${row}.id, 1) ` +
                `ON CONFLICT (table_name, row_id) DO UPDATE SET version = version + 1; END`,
            )
            .execute(db);
        }
      }
      return;
    }
    await sql
      .raw(
        `CREATE FUNCTION bump_row_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO row_versions (table_name, row_id, version)
          VALUES (TG_TABLE_NAME, CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END, 1)
          ON CONFLICT (table_name, row_id) DO UPDATE SET version = row_versions.version + 1;
          RETURN NULL;
        END $$`,
      )
      .execute(db);
    for (const table of VERSIONED_TABLES) {
      await sql
        .raw(`CREATE TRIGGER ${table}_row_version AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION bump_row_version()`)
        .execute(db);
    }
  },
};
