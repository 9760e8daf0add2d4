/**
 * The hottest read stays index-backed: query plans of channel, topic, direct-message and sender
 * narrows around an anchor, after a bulk load and ANALYZE, never scan the messages table.
 * SQLite: EXPLAIN QUERY PLAN has no `SCAN m` (every access to messages is a SEARCH through an
 * index); PostgreSQL: EXPLAIN has no `Seq Scan on messages`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { resolveNarrow } from "../../src/actions/messages/narrow-terms.js";
import { parseNarrow } from "../../src/lib/narrow.js";
import { analyze, bulkInsertChannelMessages } from "../../src/store/bulk-seed.js";
import { getChannelById } from "../../src/store/channels.js";
import { readTx, transaction } from "../../src/store/db.js";
import { explainNarrow } from "../../src/store/narrow.js";
import type { UserRow } from "../../src/store/types.js";
import { getUserById } from "../../src/store/users.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel, sendDm } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

const PER_CHANNEL = 1500;
const FILLER_CHANNELS = 8;

for (const kind of STORE_KINDS) {
  describe(`narrow query plans [${kind}]`, () => {
    let t: TestRealm;
    let hamlet: UserRow;

    before(async () => {
      t = await createTestRealm(kind);
      const u = t.users;
      const channels = [
        await createChannel(t, "Verona", ["iago", "hamlet", "othello"]),
        await createChannel(t, "Secret", ["iago", "hamlet"], { invite_only: true, history_public_to_subscribers: false }),
      ];
      for (let i = 0; i < FILLER_CHANNELS; i++) channels.push(await createChannel(t, `Filler ${i}`, ["iago", "othello"]));
      for (let i = 0; i < 15; i++) {
        await sendDm(t, "hamlet", ["othello"], `out ${i}`);
        await sendDm(t, "othello", ["hamlet"], `in ${i}`);
        await sendDm(t, "othello", ["hamlet", "iago"], `group ${i}`);
      }
      const senders = [u.iago.id, u.hamlet.id, u.othello.id];
      await transaction(t.deps.store, async (tx) => {
        for (const id of channels) {
          const channel = await getChannelById(tx, t.realmId, id);
          const rows = Array.from({ length: PER_CHANNEL }, (_, i) => ({
            senderId: senders[i % 3],
            topic: `topic ${i % 40}`,
            content: `word${i % 97} filler text`,
            dateSent: 1_700_000_000 + i,
          }));
          await bulkInsertChannelMessages(tx, t.realmId, channel?.recipient_id as number, rows);
        }
        await analyze(tx);
      });
      hamlet = (await getUserById(readTx(t.deps.store), t.realmId, u.hamlet.id)) as UserRow;
    });
    after(() => t.close());

    async function plan(narrow: unknown[]): Promise<string[]> {
      const tx = readTx(t.deps.store);
      const resolved = await resolveNarrow(tx, hamlet, parseNarrow(narrow));
      const before = await explainNarrow(tx, resolved.query, { max: 10_000, order: "desc", limit: 101 });
      const afterAnchor = await explainNarrow(tx, resolved.query, { min: 5_000, order: "asc", limit: 101 });
      return [...before, ...afterAnchor];
    }

    function assertIndexed(lines: string[], label: string, opts: { index?: string; sorted?: boolean } = {}): void {
      const text = lines.join("\n");
      if (kind === "sqlite") {
        assert.ok(!lines.some((l) => /\bSCAN m\b/.test(l)), `${label} scans messages:\n${text}`);
        assert.ok(lines.some((l) => /\bSEARCH m USING/.test(l)), `${label} doesn't search messages by index:\n${text}`);
        if (opts.index) assert.match(text, new RegExp(`SEARCH m USING (COVERING )?INDEX ${opts.index}\\b`), label);
        if (opts.sorted) assert.ok(!text.includes("TEMP B-TREE"), `${label} sorts instead of walking the index:\n${text}`);
      } else {
        assert.ok(!/Seq Scan on messages/.test(text), `${label} scans messages:\n${text}`);
      }
    }

    it("channel narrows walk messages(recipient_id, id)", async () => {
      assertIndexed(await plan([["channel", "Verona"]]), "channel", { index: "messages_recipient_id", sorted: true });
      assertIndexed(await plan([["channel", "Secret"]]), "protected channel", { index: "messages_recipient_id", sorted: true });
    });

    it("topic narrows walk messages(recipient_id, lower(subject), id)", async () => {
      assertIndexed(await plan([["channel", "Verona"], ["topic", "Topic 7"]]), "topic", { index: "messages_recipient_topic", sorted: true });
      assertIndexed(await plan([["channel", "Secret"], ["topic", "topic 7"]]), "protected topic", { index: "messages_recipient_topic", sorted: true });
    });

    it("direct-message narrows use the recipient index", async () => {
      assertIndexed(await plan([["dm", "othello@zulip.test"]]), "1:1 dm", { index: "messages_recipient_id" });
      assertIndexed(await plan([["dm", "othello@zulip.test,iago@zulip.test"]]), "group dm", { index: "messages_recipient_id", sorted: true });
    });

    it("sender narrows walk messages(sender_id, id)", async () => {
      assertIndexed(await plan([["sender", "othello@zulip.test"]]), "sender", { index: "messages_sender_id", sorted: true });
    });
  });
}
