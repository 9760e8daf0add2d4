/** POST /typing (spec 4.1): validation, recipients, settings, capability filtering. */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { transaction } from "../../src/store/db.js";
import { updateUser } from "../../src/store/users.js";

for (const kind of STORE_KINDS) {
  describe(`typing notifications [${kind}]`, () => {
    let t: TestRealm;
    let channelId: number;
    before(async () => {
      t = await createTestRealm(kind);
      const res = await t.as("iago").post("/channels/create", { name: "Verona", subscribers: [t.users.iago.id, t.users.hamlet.id, t.users.othello.id] });
      channelId = res.body.id;
    });
    beforeEach(() => {
      t.published.length = 0;
    });
    after(() => t.close());

    const typingEvents = () => t.published.filter((p) => p.event.type === "typing");

    it("sends direct typing (the default type) to every participant", async () => {
      const res = await t.as("hamlet").post("/typing", { op: "start", to: [t.users.othello.id] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [e] = typingEvents();
      assert.deepEqual(e.event, {
        type: "typing",
        op: "start",
        message_type: "direct",
        sender: { user_id: t.users.hamlet.id, email: "hamlet@zulip.test" },
        recipients: [t.users.hamlet, t.users.othello].sort((a, b) => a.id - b.id).map((u) => ({ user_id: u.id, email: u.email })),
      });
      assert.deepEqual(e.userIds.sort(), [t.users.hamlet.id, t.users.othello.id].sort());
    });

    it("sends channel typing for type stream and its alias channel; the display name of the empty topic reads as ''", async () => {
      for (const type of ["stream", "channel"]) {
        const res = await t.as("hamlet").post("/typing", { type, op: "stop", stream_id: channelId, topic: "general chat" });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const events = typingEvents();
      assert.equal(events.length, 2);
      assert.equal(events[0].event.message_type, "stream");
      assert.equal(events[0].event.topic, "");
      assert.equal(events[0].event.stream_id, channelId);
      assert.deepEqual(events[0].userIds.sort(), [t.users.iago.id, t.users.hamlet.id, t.users.othello.id].sort());
    });

    it("skips users who turned receives_typing_notifications off", async () => {
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.othello.id, { settings: JSON.stringify({ receives_typing_notifications: false }) }));
      await t.as("hamlet").post("/typing", { op: "start", to: [t.users.othello.id] });
      assert.deepEqual(typingEvents()[0].userIds, [t.users.hamlet.id]);
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.othello.id, { settings: "{}" }));
    });

    it("refuses bad requests", async () => {
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ op: "start" }, 400, "Missing 'to' argument"],
        [{ op: "start", to: [] }, 400, "Empty 'to' list"],
        [{ op: "start", to: [987654] }, 400, "Invalid user ID 987654"],
        [{ op: "begin", to: [t.users.othello.id] }, 400, "Invalid op"],
        [{ type: "private", op: "start", to: [t.users.othello.id] }, 400, "Invalid type"],
        [{ type: "channel", op: "start", topic: "x" }, 400, "Missing channel ID"],
        [{ type: "stream", op: "start", stream_id: channelId }, 400, "Missing topic"],
        [{ type: "stream", op: "start", stream_id: 99999, topic: "x" }, 400, "Invalid channel ID"],
        [{ op: "start", to: "not json" }, 400, 'Argument "to" is not valid JSON.'],
      ];
      for (const [params, status, msg] of cases) {
        const res = await t.as("hamlet").post("/typing", params);
        assert.equal(res.status, status, JSON.stringify(res.body));
        assert.equal(res.body.msg, msg);
      }
      assert.equal(typingEvents().length, 0);
      const missingOp = await t.as("hamlet").post("/typing", { to: [t.users.othello.id] });
      assert.equal(missingOp.body.code, "REQUEST_VARIABLE_MISSING");
    });

    it("refuses when the sender disabled sending typing notifications", async () => {
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.hamlet.id, { settings: JSON.stringify({ send_private_typing_notifications: false }) }));
      const res = await t.as("hamlet").post("/typing", { op: "start", to: [t.users.othello.id] });
      assert.equal(res.status, 400);
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.hamlet.id, { settings: "{}" }));
    });

    it("delivers channel typing only to queues that declared stream_typing_notifications", async () => {
      const modern = await t.as("othello").post("/register", { event_types: ["typing"], client_capabilities: { stream_typing_notifications: true } });
      const legacy = await t.as("othello").post("/register", { event_types: ["typing"] });
      await t.as("hamlet").post("/typing", { type: "channel", op: "start", stream_id: channelId, topic: "x" });
      const got = await t.as("othello").get("/events", { queue_id: modern.body.queue_id, dont_block: true });
      assert.equal(got.body.events.length, 1);
      const none = await t.as("othello").get("/events", { queue_id: legacy.body.queue_id, dont_block: true });
      assert.equal(none.body.events.length, 0);
    });
  });
}
