/**
 * The `channels:archived` narrow (FL 489): the messages the user received in channels that have
 * since been archived; negated, everything else. On every store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel, sendToChannel } from "../helpers/conversations.js";
import { assertError, narrowIds, sendDm } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`channels:archived narrow [${kind}]`, () => {
    let t: TestRealm;
    const m: Record<string, number> = {};
    before(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "Old", ["hamlet", "othello"]);
      await createChannel(t, "Live", ["hamlet", "othello"]);
      await createChannel(t, "Attic", ["othello"]);
      m.old = await sendToChannel(t, "othello", "Old", "past", "from before");
      m.live = await sendToChannel(t, "othello", "Live", "now", "still going");
      m.attic = await sendToChannel(t, "othello", "Attic", "dust", "hamlet never got this");
      m.dm = await sendDm(t, "othello", ["hamlet"], "psst");
      for (const name of ["Old", "Attic"]) {
        const id = (await t.as("iago").get("/get_stream_id", { stream: name })).body.stream_id;
        assert.equal((await t.as("iago").delete(`/streams/${id}`)).status, 200);
      }
    });
    after(() => t.close());

    /** The narrow's messages, as "channel: content" (archiving posts a notice in the channel too). */
    const found = async (user: "hamlet" | "othello" | "cordelia", negated = false) => {
      const res = await t.as(user).get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: [{ operator: "channels", operand: "archived", negated }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.messages as Array<{ id: number; display_recipient: unknown }>).map((msg) => ({ id: msg.id, channel: msg.display_recipient }));
    };

    it("finds the messages the user received in archived channels", async () => {
      const hamlet = await found("hamlet");
      assert.deepEqual(new Set(hamlet.map((x) => x.channel)), new Set(["Old"]));
      assert.ok(hamlet.some((x) => x.id === m.old));
      const othello = await found("othello");
      assert.deepEqual(new Set(othello.map((x) => x.channel)), new Set(["Old", "Attic"]));
      assert.ok(othello.some((x) => x.id === m.attic));
      // A public archived channel's history is not searched beyond what the user received.
      assert.deepEqual(await found("cordelia"), []);
    });

    it("negated, finds everything else", async () => {
      const others = await narrowIds(t, "hamlet", [{ operator: "channels", operand: "archived", negated: true }]);
      assert.ok(others.includes(m.live) && others.includes(m.dm));
      assert.ok(!others.includes(m.old));
    });

    it("still refuses unknown operands", async () => {
      const res = await t.as("hamlet").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["channels", "private"]] });
      assertError(res, "BAD_NARROW", "Invalid narrow operator: unknown channels operand private");
    });
  });
}
