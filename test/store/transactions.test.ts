/**
 * The transaction helper's contract (architecture-anchors §6): a rollback leaves no rows and runs no
 * onCommit callbacks; after a commit the callbacks run in order, once, and see committed data.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { countRealms, getRealmBySubdomain } from "../../src/store/realms.js";
import { realmRow, userRow } from "../helpers/rows.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`transactions [${kind}]`, () => {
    let ts: TestStore;
    before(async () => {
      ts = await openTestStore(kind);
    });
    after(() => ts.cleanup());

    it("rolls back every write and runs no onCommit callback when the body throws", async () => {
      const ran: string[] = [];
      await assert.rejects(
        transaction(ts.store, async (tx) => {
          const realmId = await realmRow(tx, "doomed");
          await userRow(tx, realmId, "u@doomed.test");
          tx.onCommit(() => ran.push("commit"));
          throw new Error("abort");
        }),
        /abort/,
      );
      assert.deepEqual(ran, []);
      assert.equal(await getRealmBySubdomain(readTx(ts.store), "doomed"), undefined);
      assert.equal(await countRealms(readTx(ts.store)), 0);
      const users = await ts.store.db.selectFrom("users").select("id").execute();
      assert.deepEqual(users, []);
    });

    it("rolls back when a statement fails (a constraint violation)", async () => {
      const ran: string[] = [];
      await assert.rejects(
        transaction(ts.store, async (tx) => {
          await realmRow(tx, "dup");
          tx.onCommit(() => ran.push("commit"));
          await realmRow(tx, "dup"); // string_id is unique
        }),
      );
      assert.deepEqual(ran, []);
      assert.equal(await getRealmBySubdomain(readTx(ts.store), "dup"), undefined);
    });

    it("runs onCommit callbacks after the commit, in registration order, with the result returned", async () => {
      const ran: string[] = [];
      const seen: Array<Promise<unknown>> = [];
      const result = await transaction(ts.store, async (tx) => {
        await realmRow(tx, "kept");
        tx.onCommit(() => ran.push("first"));
        tx.onCommit(() => {
          ran.push("second");
          // Read through the store, not the transaction: on PostgreSQL this is another connection,
          // which sees the row only if the commit already happened.
          seen.push(getRealmBySubdomain(readTx(ts.store), "kept"));
        });
        assert.deepEqual(ran, [], "callbacks wait for the commit");
        return 42;
      });
      assert.equal(result, 42);
      assert.deepEqual(ran, ["first", "second"]);
      assert.equal(seen.length, 1);
      const row = (await seen[0]) as { string_id: string } | undefined;
      assert.equal(row?.string_id, "kept");
    });

    it("refuses onCommit outside a transaction", () => {
      assert.throws(() => readTx(ts.store).onCommit(() => undefined), /onCommit needs a transaction/);
    });
  });
}
