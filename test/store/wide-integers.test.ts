/**
 * Lookups by ids outside PostgreSQL's INTEGER range find nothing, as on SQLite, instead of failing
 * the query (store/pg-wide-integers.ts; found by fuzzing, issue 9).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { getUserById, getUsersByIds } from "../../src/store/users.js";
import { realmRow, userRow } from "../helpers/rows.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`ids beyond 32 bits [${kind}]`, () => {
    let ts: TestStore;
    let realmId: number;
    let userId: number;
    before(async () => {
      ts = await openTestStore(kind);
      ({ realmId, userId } = await transaction(ts.store, async (tx) => {
        const realmId = await realmRow(tx, "wide");
        return { realmId, userId: await userRow(tx, realmId, "a@wide.test") };
      }));
    });
    after(() => ts.cleanup());

    it("match no row, alone or in a list with ids that exist", async () => {
      const tx = readTx(ts.store);
      for (const id of [2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1]) assert.equal(await getUserById(tx, realmId, id), undefined);
      assert.deepEqual((await getUsersByIds(tx, realmId, [userId, 2 ** 40, -(2 ** 40)])).map((u) => u.id), [userId]);
      assert.equal((await getUserById(tx, realmId, userId))?.id, userId);
    });
  });
}
