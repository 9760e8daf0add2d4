/**
 * Prepared queries (src/store/prepared.ts) are compiled once and filled with each call's values:
 * they must answer exactly what the same builder query answers, for every call's own arguments,
 * inside transactions too, and treat an id beyond PostgreSQL's INTEGER range as any query does
 * (no row, not an error).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { prepared } from "../../src/store/prepared.js";
import type { UserRow } from "../../src/store/types.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const usersByRole = prepared<{ realmId: number; role: number; active: boolean }, UserRow>((db, arg) =>
  db.selectFrom("users").selectAll().where("realm_id", "=", arg("realmId")).where("role", "=", arg("role")).where("is_active", "=", arg("active")).orderBy("id"),
);
const userById = prepared<{ id: number }, Pick<UserRow, "id" | "full_name">>((db, arg) => db.selectFrom("users").select(["id", "full_name"]).where("id", "=", arg("id")));

for (const kind of STORE_KINDS) {
  describe(`prepared queries [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    it("answers what the builder answers, with each call's own arguments", async () => {
      const tx = readTx(t.deps.store);
      for (const role of [100, 200, 400, 600]) {
        const expected = await tx.db.selectFrom("users").selectAll().where("realm_id", "=", t.realmId).where("role", "=", role).where("is_active", "=", true).orderBy("id").execute();
        assert.ok(expected.length > 0, `role ${role} has users`);
        assert.deepEqual(await usersByRole(tx, { realmId: t.realmId, role, active: true }), expected);
      }
      assert.deepEqual(await usersByRole(tx, { realmId: t.realmId, role: 400, active: false }), []);
    });

    it("runs inside a transaction and sees its uncommitted writes", async () => {
      await transaction(t.deps.store, async (tx) => {
        await tx.db.updateTable("users").set({ full_name: "Renamed" }).where("id", "=", t.users.hamlet.id).execute();
        assert.deepEqual(await userById(tx, { id: t.users.hamlet.id }), [{ id: t.users.hamlet.id, full_name: "Renamed" }]);
        throw new Error("roll back");
      }).catch((err: Error) => assert.equal(err.message, "roll back"));
      assert.deepEqual(await userById(readTx(t.deps.store), { id: t.users.hamlet.id }), [{ id: t.users.hamlet.id, full_name: "King Hamlet" }]);
    });

    it("finds nothing for an id beyond the INTEGER range instead of failing", async () => {
      assert.deepEqual(await userById(readTx(t.deps.store), { id: 2 ** 40 }), []);
      assert.deepEqual(await userById(readTx(t.deps.store), { id: -(2 ** 40) }), []);
    });
  });
}
