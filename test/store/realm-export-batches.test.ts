/**
 * Tables read by windows of exported message ids (messages, user_messages) come out exactly as
 * one keyset walk over the table's order with the export's condition gives them: same rows, same
 * order, for every kind of export, across many windows and batches, on both stores.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EXPORT_BATCH_ROWS } from "../../src/actions/realm-export/archive-format.js";
import { tableBatches } from "../../src/actions/realm-export/table-batches.js";
import { analyze, bulkInsertChannelMessages } from "../../src/store/bulk-seed.js";
import { getChannelById } from "../../src/store/channels.js";
import { readTx, transaction } from "../../src/store/db.js";
import { readRowBatch, type Row } from "../../src/store/realm-export-rows.js";
import { EXPORT_TABLES, exportCondition, type ExportKind, type ScopeContext } from "../../src/store/realm-export-tables.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel, sendDm } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

const MESSAGES_PER_CHANNEL = 1200;

for (const kind of STORE_KINDS) {
  describe(`realm export batches by message windows [${kind}]`, () => {
    let t: TestRealm;

    before(async () => {
      t = await createTestRealm(kind);
      const open = await createChannel(t, "Verona", ["iago", "hamlet", "othello", "cordelia", "polonius", "shiva", "desdemona"]);
      const secret = await createChannel(t, "Secret", ["iago", "othello"], { invite_only: true });
      for (let i = 0; i < 5; i++) await sendDm(t, "othello", ["cordelia"], `dm ${i}`);
      await transaction(t.deps.store, async (tx) => {
        for (const id of [open, secret, open]) {
          const channel = await getChannelById(tx, t.realmId, id);
          const rows = Array.from({ length: MESSAGES_PER_CHANNEL }, (_, i) => ({ senderId: t.users.iago.id, topic: `t${i % 7}`, content: `m${i}`, dateSent: 1_700_000_000 + i }));
          await bulkInsertChannelMessages(tx, t.realmId, channel?.recipient_id as number, rows);
        }
        await analyze(tx);
      });
      for (let i = 0; i < 5; i++) await sendDm(t, "cordelia", ["othello"], `dm back ${i}`);
    });
    after(() => t.close());

    async function keysetWalk(scope: ScopeContext, name: string): Promise<Row[]> {
      const table = EXPORT_TABLES.find((x) => x.name === name)!;
      const all: Row[] = [];
      let position: unknown[] | null = null;
      for (;;) {
        const rows = await readRowBatch(readTx(t.deps.store), table, exportCondition(table, scope), position, EXPORT_BATCH_ROWS);
        all.push(...rows);
        if (rows.length < EXPORT_BATCH_ROWS) return all;
        position = table.order.map((c) => rows[rows.length - 1][c]);
      }
    }

    const cases: Array<[ExportKind, Array<"othello" | "iago">]> = [["public", []], ["full_with_consent", ["othello"]], ["full_without_consent", ["othello", "iago"]]];
    for (const [exportKind, consenting] of cases) {
      it(`gives the keyset's rows in its order (${exportKind})`, async () => {
        const privateUserIds = exportKind === "full_without_consent" ? Object.values(t.users).map((u) => u.id) : consenting.map((n) => t.users[n].id);
        const scope: ScopeContext = { realmId: t.realmId, dialect: t.deps.store.dialect, kind: exportKind, privateUserIds };
        for (const table of EXPORT_TABLES.filter((x) => x.byMessage)) {
          const batches: Row[][] = [];
          for await (const rows of tableBatches(t.deps.store, table, scope)) batches.push(rows);
          assert.ok(batches.every((rows) => rows.length > 0 && rows.length <= EXPORT_BATCH_ROWS), table.name);
          const expected = await keysetWalk(scope, table.name);
          assert.deepEqual(batches.flat(), expected, `${table.name} (${exportKind})`);
          if (table.name === "messages" || exportKind !== "public") assert.ok(expected.length > EXPORT_BATCH_ROWS, `${table.name} spans several batches`);
        }
      });
    }
  });
}
