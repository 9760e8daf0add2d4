/**
 * Multi-row inserts without the query builder (src/store/bulk-insert.ts) and the subscription rows
 * of many users read from the whole recipient (store/subscriptions.ts): the same rows as the
 * builder's queries, in statements of a few fixed sizes, values beyond PostgreSQL's INTEGER range
 * on the builder's path, and all or nothing inside a transaction.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { insertRows } from "../../src/store/bulk-insert.js";
import { readTx, transaction, type Tx } from "../../src/store/db.js";
import { getSubscriptionRows } from "../../src/store/subscriptions.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

interface VersionRow extends Record<string, unknown> {
  table_name: string;
  row_id: number;
  version: number;
}

const rowsOf = (name: string, n: number, start = 1): VersionRow[] => Array.from({ length: n }, (_, i) => ({ table_name: name, row_id: start + i, version: i % 7 }));

async function stored(tx: Tx, name: string): Promise<VersionRow[]> {
  const rows = await tx.db.selectFrom("row_versions").selectAll().where("table_name", "=", name).orderBy("row_id").execute();
  return rows.map((r) => ({ table_name: r.table_name, row_id: Number(r.row_id), version: Number(r.version) }));
}

for (const kind of STORE_KINDS) {
  describe(`bulk inserts [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    it("writes every row with its own values, whatever the count", async () => {
      for (const n of [1, 2, 3, 200, 1001]) {
        const name = `bulk-${n}`;
        const rows = rowsOf(name, n);
        await transaction(t.deps.store, (tx) => insertRows(tx, "row_versions", ["table_name", "row_id", "version"], rows));
        assert.deepEqual(await stored(readTx(t.deps.store), name), rows, `${n} rows`);
      }
      await transaction(t.deps.store, (tx) => insertRows(tx, "row_versions", ["table_name", "row_id", "version"], []));
    });

    it("takes values beyond INTEGER through the builder, with the same result", async () => {
      const rows = [...rowsOf("bulk-wide", 3), { table_name: "bulk-wide", row_id: 2 ** 40, version: 1 }];
      await transaction(t.deps.store, (tx) => insertRows(tx, "row_versions", ["table_name", "row_id", "version"], rows));
      assert.deepEqual(await stored(readTx(t.deps.store), "bulk-wide"), rows);
    });

    it("writes nothing when a row fails (the transaction rolls back)", async () => {
      const rows = [...rowsOf("bulk-dup", 40), ...rowsOf("bulk-dup", 1, 5)];
      await assert.rejects(transaction(t.deps.store, (tx) => insertRows(tx, "row_versions", ["table_name", "row_id", "version"], rows)));
      assert.deepEqual(await stored(readTx(t.deps.store), "bulk-dup"), []);
    });

    it("reads many users' subscription rows from the whole channel, and few by name, alike", async () => {
      const members = [t.users.hamlet.id, t.users.othello.id, t.users.cordelia.id];
      const created = await t.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "bulk" }]), principals: JSON.stringify(members) });
      assert.equal(created.status, 200);
      const tx = readTx(t.deps.store);
      const channel = await tx.db.selectFrom("channels").select("recipient_id").where("realm_id", "=", t.realmId).where("name", "=", "bulk").executeTakeFirstOrThrow();
      const recipientId = channel.recipient_id as number;
      const all = await tx.db.selectFrom("subscriptions").selectAll().where("recipient_id", "=", recipientId).orderBy("user_id").execute();
      assert.ok(all.length >= 2, "the channel has subscribers");
      const byId = (rows: readonly { user_id: number }[]) => [...rows].sort((a, b) => a.user_id - b.user_id);
      const subscribers = all.map((s) => s.user_id);
      // Many ids, most of them not subscribed: only the subscribed users' rows come back.
      const many = [...subscribers, ...Array.from({ length: 100 }, (_, i) => 1_000_000 + i)];
      assert.deepEqual(byId(await getSubscriptionRows(tx, recipientId, many)), all);
      assert.deepEqual(byId(await getSubscriptionRows(tx, recipientId, subscribers.slice(0, 1))), all.slice(0, 1));
      assert.deepEqual(await getSubscriptionRows(tx, recipientId, []), []);
    });
  });
}
