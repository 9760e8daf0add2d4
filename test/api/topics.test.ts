/** A channel's topic list (spec 4.19), on every store. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { archiveChannel, createChannel, sendToChannel, subscribe } from "../helpers/conversations.js";

for (const kind of STORE_KINDS) {
  describe(`channel topics [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
    });
    after(() => t.close());

    const topicsOf = (user: Parameters<TestRealm["as"]>[0], channelId: number, params: Record<string, unknown> = {}) =>
      t.as(user).get(`/users/me/${channelId}/topics`, params);

    it("lists each topic once, newest first, with its latest spelling and message id", async () => {
      const first = await sendToChannel(t, "hamlet", "Verona", "Lunch");
      const other = await sendToChannel(t, "hamlet", "Verona", "plans");
      const latest = await sendToChannel(t, "othello", "Verona", "LUNCH");
      const res = await topicsOf("hamlet", verona);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.topics, [
        { name: "LUNCH", max_id: latest },
        { name: "plans", max_id: other },
      ]);
      assert.ok(first < other);
      assert.equal(res.body.result, "success");
    });

    it("shows the empty topic as its display name unless the client allows empty names", async () => {
      const channelId = await createChannel(t, "Chatter", ["hamlet"]);
      const id = await sendToChannel(t, "hamlet", "Chatter", "");
      assert.deepEqual((await topicsOf("hamlet", channelId)).body.topics, [{ name: "general chat", max_id: id }]);
      assert.deepEqual((await topicsOf("hamlet", channelId, { allow_empty_topic_name: true })).body.topics, [{ name: "", max_id: id }]);
    });

    it("shows all topics of a public channel to non-subscribers, but not to guests", async () => {
      const res = await topicsOf("cordelia", verona);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.topics, (await topicsOf("hamlet", verona)).body.topics);
      const guest = await topicsOf("polonius", verona);
      assert.equal(guest.status, 400);
      assert.deepEqual(guest.body, { result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" });
    });

    it("hides private channels from non-subscribers with the error of a missing channel", async () => {
      const secret = await createChannel(t, "Secret", ["iago"], { invite_only: true, history_public_to_subscribers: true });
      const id = await sendToChannel(t, "iago", "Secret", "plot");
      const hidden = await topicsOf("hamlet", secret);
      const missing = await topicsOf("hamlet", 999999);
      assert.equal(hidden.status, 400);
      assert.deepEqual(hidden.body, missing.body);
      assert.deepEqual(missing.body, { result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" });
      // Shared history: a new subscriber sees every topic.
      await subscribe(t, secret, ["hamlet"]);
      assert.deepEqual((await topicsOf("hamlet", secret)).body.topics, [{ name: "plot", max_id: id }]);
    });

    it("limits protected history to the topics of messages the user received", async () => {
      const vault = await createChannel(t, "Vault", ["iago"], { invite_only: true, history_public_to_subscribers: false });
      const before1 = await sendToChannel(t, "iago", "Vault", "before");
      await sendToChannel(t, "iago", "Vault", "shared");
      await subscribe(t, vault, ["hamlet", "bot"]);
      const after1 = await sendToChannel(t, "iago", "Vault", "after");
      const sharedLater = await sendToChannel(t, "iago", "Vault", "Shared");
      const expected = [
        { name: "Shared", max_id: sharedLater },
        { name: "after", max_id: after1 },
      ];
      assert.deepEqual((await topicsOf("hamlet", vault)).body.topics, expected);
      assert.deepEqual((await topicsOf("bot", vault)).body.topics, expected);
      const full = (await topicsOf("iago", vault)).body.topics;
      assert.deepEqual(full.map((x: { name: string }) => x.name), ["Shared", "after", "before"]);
      assert.equal(full[2].max_id, before1);
    });

    it("lists the topics of archived channels", async () => {
      const attic = await createChannel(t, "Attic", ["hamlet"]);
      const id = await sendToChannel(t, "hamlet", "Attic", "dust");
      await archiveChannel(t, attic);
      assert.deepEqual((await topicsOf("hamlet", attic)).body.topics, [{ name: "dust", max_id: id }]);
    });

    it("validates its parameters", async () => {
      const bad = await topicsOf("hamlet", verona, { allow_empty_topic_name: "maybe" });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, "INVALID_JSON");
      const notInt = await t.as("hamlet").get("/users/me/abc/topics");
      // Zulip's <int:stream_id> route does not match: 404, like any unknown URL.
      assert.equal(notInt.status, 404);
      assert.equal(notInt.body.msg, "Not Found");
    });
  });
}
