/**
 * Per-realm versions of the data every POST /register lists in full: the realm's users (with their
 * profile field values), its group memberships and its channel subscriptions. Each change to one
 * of those rows bumps its realm's version (a `row_versions` row named `realm_users`,
 * `realm_groups` or `realm_subscriptions`, keyed by realm id), so a process can keep the realm's
 * list in memory and check with one small indexed read that it is still current (realm-lists.ts;
 * issue 8, S8: at 5,000 users these reads were 35 ms of a 60 ms register). Triggers, as in 0006,
 * because every writer must bump them.
 */
import { sql } from "kysely";
import type { Migration } from "./helpers.js";

/** Table → the version it bumps and, on SQLite, the expression giving the realm of a row (NEW or OLD). */
const SOURCES: Array<{ table: string; kind: string; realmOf: (row: string) => string }> = [
  { table: "users", kind: "realm_users", realmOf: (row) => `${row}.realm_id` },
  // Profile field values are part of the user objects register lists (people.ts).
  { table: "custom_profile_field_values", kind: "realm_users", realmOf: (row) => `(SELECT realm_id FROM users WHERE id = ${row}.user_id)` },
  { table: "user_group_members", kind: "realm_groups", realmOf: (row) => `(SELECT realm_id FROM user_groups WHERE id = ${row}.group_id)` },
  { table: "user_group_subgroups", kind: "realm_groups", realmOf: (row) => `(SELECT realm_id FROM user_groups WHERE id = ${row}.supergroup_id)` },
  { table: "subscriptions", kind: "realm_subscriptions", realmOf: (row) => `(SELECT realm_id FROM users WHERE id = ${row}.user_id)` },
];

export const realmVersions: Migration = {
  async up(db, d) {
    if (d === "sqlite") {
      for (const { table, kind, realmOf } of SOURCES) {
        for (const [op, row] of [["INSERT", "NEW"], ["UPDATE", "NEW"], ["DELETE", "OLD"]]) {
          // Nothing is inserted when the realm cannot be found (rows going with a deleted user).
          await sql
            .raw(
              `CREATE TRIGGER ${table}_${kind}_${op.toLowerCase()} AFTER ${op} ON ${table} FOR EACH ROW BEGIN ` +
                `INSERT INTO row_versions (table_name, row_id, version) SELECT '${kind}', realm, 1 FROM (SELECT ${realmOf(row)} AS realm) ` +
                `WHERE realm IS NOT NULL ON CONFLICT (table_name, row_id) DO UPDATE SET version = version + 1; END`,
            )
            .execute(db);
        }
      }
      return;
    }
    // One function for the five tables: plpgsql resolves a record's fields only in the branch
    // that runs, so each table reads its own columns.
    await sql
      .raw(
        `CREATE FUNCTION bump_realm_version() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          r record;
          realm bigint;
        BEGIN
          IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
          IF TG_TABLE_NAME = 'users' THEN realm := r.realm_id;
          ELSIF TG_TABLE_NAME = 'user_group_members' THEN SELECT realm_id INTO realm FROM user_groups WHERE id = r.group_id;
          ELSIF TG_TABLE_NAME = 'user_group_subgroups' THEN SELECT realm_id INTO realm FROM user_groups WHERE id = r.supergroup_id;
          ELSIF TG_TABLE_NAME IN ('subscriptions', 'custom_profile_field_values') THEN SELECT realm_id INTO realm FROM users WHERE id = r.user_id;
          END IF;
          IF realm IS NOT NULL THEN
            INSERT INTO row_versions (table_name, row_id, version) VALUES (TG_ARGV[0], realm, 1)
            ON CONFLICT (table_name, row_id) DO UPDATE SET version = row_versions.version + 1;
          END IF;
          RETURN NULL;
        END $$`,
      )
      .execute(db);
    for (const { table, kind } of SOURCES) {
      await sql
        .raw(`CREATE TRIGGER ${table}_${kind} AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION bump_realm_version('${kind}')`)
        .execute(db);
    }
  },
};
