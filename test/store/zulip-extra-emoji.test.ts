/**
 * Migration 0009: reactions and statuses stored with the `:zulip:` emoji under Parley's old
 * reaction type take Zulip's `zulip_extra_emoji`, the only value the mobile app's parser accepts
 * (issue 15). Run again over rows written the old way, on every store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { zulipExtraEmoji } from "../../src/store/migrations/0011_zulip_extra_emoji.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`the extra emoji's reaction type [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    it("rewrites reactions and statuses stored as service_extra_emoji, and nothing else", async () => {
      await createChannel(t, "Verona", ["hamlet", "othello"]);
      const id = await sendToChannel(t, "hamlet", "Verona", "old rows", "hello");
      for (const user of ["hamlet", "othello"] as const) {
        assert.equal((await t.as(user).post(`/messages/${id}/reactions`, { emoji_name: user === "hamlet" ? "zulip" : "smile" })).status, 200);
      }
      assert.equal((await t.as("hamlet").post("/users/me/status", { emoji_name: "zulip" })).status, 200);
      const db = t.deps.store.db;
      // Rows as the previous release wrote them.
      await db.updateTable("reactions").set({ reaction_type: "service_extra_emoji" }).where("emoji_code", "=", "zulip").execute();
      await db.updateTable("user_status").set({ reaction_type: "service_extra_emoji" }).where("user_id", "=", t.users.hamlet.id).execute();

      await zulipExtraEmoji.up(db, t.deps.store.dialect);

      const reactions = (await t.as("iago").get(`/messages/${id}`)).body.message.reactions as Array<Record<string, unknown>>;
      assert.deepEqual(reactions.map((r) => [r.emoji_code, r.reaction_type]).sort(), [["1f604", "unicode_emoji"], ["zulip", "zulip_extra_emoji"]]);
      const status = await t.as("iago").get(`/users/${t.users.hamlet.id}/status`);
      assert.equal(status.body.status.reaction_type, "zulip_extra_emoji");
      // The reaction can be removed under Zulip's name.
      const removed = await t.as("hamlet").delete(`/messages/${id}/reactions`, { emoji_name: "zulip", reaction_type: "zulip_extra_emoji" });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
    });
  });
}
