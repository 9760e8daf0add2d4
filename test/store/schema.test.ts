/**
 * Migrations and the column conventions both engines must share: migrations apply once, every
 * migration file is registered, and booleans come back as JS booleans on SQLite (which stores them
 * as integers) exactly as on PostgreSQL.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { readTx, transaction } from "../../src/store/db.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { getRealmById, updateRealm } from "../../src/store/realms.js";
import { BOOLEAN_COLUMNS } from "../../src/store/schema.js";
import { getUserById, listUsers } from "../../src/store/users.js";
import { insertGroup } from "../../src/store/groups.js";
import { realmRow, userRow, NOW } from "../helpers/rows.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

const MIGRATION_FILES = readdirSync(new URL("../../src/store/migrations/", import.meta.url))
  // A letter after the number marks a second migration of one branch (0016a_…).
  .filter((f) => /^\d{4}[a-z]?_\w+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ""))
  .sort();

/** Every column named in BOOLEAN_COLUMNS that this row carries must be a real boolean. */
function assertBooleans(row: Record<string, unknown>, label: string) {
  for (const [key, value] of Object.entries(row)) {
    if (BOOLEAN_COLUMNS.has(key)) assert.equal(typeof value, "boolean", `${label}.${key} = ${JSON.stringify(value)}`);
  }
}

for (const kind of STORE_KINDS) {
  describe(`migrations and column types [${kind}]`, () => {
    let ts: TestStore;
    before(async () => {
      ts = await openTestStore(kind);
    });
    after(() => ts.cleanup());

    it("recorded every migration file, and a second run applies nothing", async () => {
      const applied = await ts.store.db.selectFrom(sql.table("kysely_migration").as("m")).select(sql<string>`name`.as("name")).execute();
      assert.deepEqual(applied.map((r) => r.name).sort(), MIGRATION_FILES);
      assert.deepEqual(await migrateToLatest(ts.store), []);
      assert.deepEqual(await migrateToLatest(ts.store), []);
    });

    it("round-trips booleans as booleans: defaults, explicit values and filters", async () => {
      const { realmId, userId, groupId } = await transaction(ts.store, async (tx) => {
        const realmId = await realmRow(tx, "bools");
        const userId = await userRow(tx, realmId, "b@bools.test", { is_bot: true, bot_type: 1, is_billing_admin: true });
        const groupId = await insertGroup(tx, { realm_id: realmId, name: "g", date_created: NOW, creator_id: null, is_system_group: true });
        return { realmId, userId, groupId };
      });
      const tx = readTx(ts.store);
      const realm = (await getRealmById(tx, realmId))!;
      assertBooleans(realm, "realm");
      assert.equal(realm.deactivated, false);
      assert.equal(realm.invite_required, true);
      const user = (await getUserById(tx, realmId, userId))!;
      assertBooleans(user, "user");
      assert.deepEqual([user.is_active, user.is_bot, user.is_billing_admin, user.is_deleted], [true, true, true, false]);
      const group = await tx.db.selectFrom("user_groups").selectAll().where("id", "=", groupId).executeTakeFirstOrThrow();
      assertBooleans(group, "group");
      assert.equal(group.is_system_group, true);

      await transaction(ts.store, (t) => updateRealm(t, realmId, { deactivated: true, invite_required: false }));
      const updated = (await getRealmById(tx, realmId))!;
      assert.equal(updated.deactivated, true);
      assert.equal(updated.invite_required, false);
      const bots = await tx.db.selectFrom("users").select("id").where("realm_id", "=", realmId).where("is_bot", "=", true).execute();
      assert.deepEqual(bots.map((r) => r.id), [userId]);
      const nonBots = await tx.db.selectFrom("users").select("id").where("realm_id", "=", realmId).where("is_bot", "=", false).execute();
      assert.deepEqual(nonBots, []);
      for (const u of await listUsers(tx, realmId)) assertBooleans(u, "listed user");
    });

    it("leaves non-boolean columns alone", async () => {
      const realmId = await transaction(ts.store, (tx) => realmRow(tx, "ints"));
      const realm = (await getRealmById(readTx(ts.store), realmId))!;
      assert.equal(realm.waiting_period_threshold, 0);
      assert.equal(realm.date_created, NOW);
      assert.equal(typeof realm.id, "number");
    });
  });
}

describe("BOOLEAN_COLUMNS matches the migrated schema", () => {
  const kind = STORE_KINDS.includes("postgres") ? "postgres" : null;
  // SQLite declares booleans as INTEGER, so only PostgreSQL's catalog can say which columns are boolean.
  const skip = kind ? false : "needs PostgreSQL: set TEST_DATABASE_URL to check BOOLEAN_COLUMNS against information_schema";

  it("lists exactly the boolean columns, and no column of another type shares one of their names", { skip }, async () => {
    const ts = await openTestStore("postgres");
    try {
      const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
        SELECT table_name, column_name, data_type FROM information_schema.columns
        WHERE table_schema = current_schema()`.execute(ts.store.db);
      const booleans = new Set(rows.filter((r) => r.data_type === "boolean").map((r) => r.column_name));
      assert.deepEqual([...booleans].filter((c) => !BOOLEAN_COLUMNS.has(c)).sort(), [], "boolean columns missing from BOOLEAN_COLUMNS");
      assert.deepEqual([...BOOLEAN_COLUMNS].filter((c) => !booleans.has(c)).sort(), [], "BOOLEAN_COLUMNS names no boolean column");
      // The SQLite adapter converts by column name in any table, so a same-named integer would be corrupted.
      const clashes = rows.filter((r) => BOOLEAN_COLUMNS.has(r.column_name) && r.data_type !== "boolean");
      assert.deepEqual(clashes, []);
    } finally {
      await ts.cleanup();
    }
  });
});
