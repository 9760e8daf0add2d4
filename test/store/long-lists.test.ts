/**
 * Lookups by lists longer than a statement can bind (SQLite: 32 766 parameters, PostgreSQL: 65 535)
 * still work, bound as one parameter (store/long-lists.ts; found by fuzzing, issue 9).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { getUsersByEmails, getUsersByIds } from "../../src/store/users.js";
import { realmRow, userRow } from "../helpers/rows.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

const MANY = 70_000;

for (const kind of STORE_KINDS) {
  describe(`lookups by very long lists [${kind}]`, () => {
    let ts: TestStore;
    let realmId: number;
    let ids: number[];
    before(async () => {
      ts = await openTestStore(kind);
      ({ realmId, ids } = await transaction(ts.store, async (tx) => {
        const realmId = await realmRow(tx, "lists");
        return { realmId, ids: [await userRow(tx, realmId, "a@lists.test"), await userRow(tx, realmId, "b@lists.test")] };
      }));
    });
    after(() => ts.cleanup());

    it("find the rows among tens of thousands of ids or emails, wide ids included", async () => {
      const tx = readTx(ts.store);
      const manyIds = [...Array.from({ length: MANY }, (_, i) => 1_000_000 + i), 2 ** 40, ids[1]];
      assert.deepEqual((await getUsersByIds(tx, realmId, manyIds)).map((u) => u.id), [ids[1]]);
      const manyEmails = [...Array.from({ length: MANY }, (_, i) => `x${i}@lists.test`), "A@LISTS.TEST"];
      assert.deepEqual((await getUsersByEmails(tx, realmId, manyEmails)).map((u) => u.id), [ids[0]]);
    });

    it("exclude tens of thousands of ids with NOT IN", async () => {
      const excluded = [...Array.from({ length: MANY }, (_, i) => 1_000_000 + i), ids[0]];
      const rows = await ts.store.db.selectFrom("users").select("id").where("realm_id", "=", realmId).where("id", "not in", excluded).execute();
      assert.deepEqual(rows.map((r) => r.id), [ids[1]]);
    });
  });
}
