/** Event queues: register, GET /events long-poll, DELETE /events (zulip-facts section f). */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`event queues [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind, { eventHeartbeatSeconds: 1 });
      await t.as("iago").post("/channels/create", { name: "Denmark", subscribers: [t.users.iago.id, t.users.hamlet.id] });
    });
    after(() => t.close());

    it("register returns a queue, the limits and the requested state", async () => {
      const res = await t.as("hamlet").post("/register", { event_types: ["message", "realm", "subscription", "realm_user", "update_message_flags"] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.match(res.body.queue_id, /\S+/);
      assert.equal(res.body.last_event_id, -1);
      assert.equal(res.body.zulip_feature_level, 496);
      for (const key of [
        "max_stream_name_length", "max_stream_description_length", "max_topic_length", "max_message_length",
        "max_channel_folder_name_length", "max_channel_folder_description_length", "max_file_upload_size_mib",
        "server_typing_started_wait_period_milliseconds", "server_typing_stopped_wait_period_milliseconds",
        "server_typing_started_expiry_period_milliseconds",
      ]) {
        assert.equal(typeof res.body[key], "number", key);
      }
      assert.equal(res.body.realm_empty_topic_display_name, "general chat");
      assert.equal(res.body.max_message_id, -1);
      assert.deepEqual(res.body.subscriptions.map((s: { name: string }) => s.name), ["Denmark"]);
      assert.ok(res.body.realm_users.some((u: { user_id: number }) => u.user_id === t.users.othello.id));
      // The user lists are written in as JSON text (src/lib/json-text.ts): still plain JSON.
      assert.equal(res.headers["content-type"], "application/json; charset=utf-8");
      assert.equal(res.body.unread_msgs.count, 0);
      assert.equal(res.body.user_groups, undefined);
    });

    it("register names the Jitsi server of the default video call provider, as a string (found by fuzzing)", async () => {
      const res = await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
      assert.equal(res.body.realm_video_chat_provider, 1);
      assert.equal(res.body.server_jitsi_server_url, "https://meet.jit.si");
      assert.equal(res.body.jitsi_server_url, "https://meet.jit.si");
    });

    it("delivers a message event to a parked poll, with local_message_id only for the sender's queue", async () => {
      const hamlet = await t.as("hamlet").post("/register", { event_types: ["message"], apply_markdown: true });
      const iago = await t.as("iago").post("/register", { event_types: ["message"], apply_markdown: false });
      const poll = t.as("iago").get("/events", { queue_id: iago.body.queue_id, last_event_id: -1 });
      await new Promise((r) => setTimeout(r, 20));
      await t.as("hamlet").post("/messages", {
        type: "stream", to: "Denmark", topic: "t", content: "**hi**", queue_id: hamlet.body.queue_id, local_id: "42.01",
      });
      const got = await poll;
      assert.equal(got.status, 200, JSON.stringify(got.body));
      const [event] = got.body.events;
      assert.equal(event.type, "message");
      assert.equal(event.id, 0);
      assert.equal(event.message.content, "**hi**");
      assert.deepEqual(event.flags, []);
      assert.equal(event.local_message_id, undefined);
      assert.equal(event.raw_content, undefined);
      const mine = await t.as("hamlet").get("/events", { queue_id: hamlet.body.queue_id, last_event_id: -1, dont_block: true });
      assert.equal(mine.body.events[0].local_message_id, "42.01");
      assert.equal(mine.body.events[0].message.content, "<p><strong>hi</strong></p>");
      assert.deepEqual(mine.body.events[0].flags, ["read"]);
      // Acknowledging prunes.
      const empty = await t.as("hamlet").get("/events", { queue_id: hamlet.body.queue_id, last_event_id: 0, dont_block: true });
      assert.deepEqual(empty.body.events, []);
    });

    it("answers an idle poll with a heartbeat", async () => {
      const q = await t.as("othello").post("/register", { event_types: ["message"] });
      const res = await t.as("othello").get("/events", { queue_id: q.body.queue_id, last_event_id: -1 });
      assert.deepEqual(res.body.events, [{ type: "heartbeat", id: 0 }]);
    });

    it("filters by event_types", async () => {
      const q = await t.as("hamlet").post("/register", { event_types: ["stream"] });
      await t.as("iago").post("/messages", { type: "stream", to: "Denmark", topic: "t", content: "x" });
      const res = await t.as("hamlet").get("/events", { queue_id: q.body.queue_id, dont_block: true });
      assert.deepEqual(res.body.events, []);
    });

    it("rejects unknown queues and other users' queues with BAD_EVENT_QUEUE_ID", async () => {
      const q = await t.as("hamlet").post("/register", {});
      for (const [who, id] of [["hamlet", "nope"], ["iago", q.body.queue_id]] as const) {
        const res = await t.as(who).get("/events", { queue_id: id, dont_block: true });
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, { result: "error", msg: `Bad event queue ID: ${id}`, code: "BAD_EVENT_QUEUE_ID", queue_id: id });
      }
    });

    it("deletes a queue", async () => {
      const q = await t.as("hamlet").post("/register", {});
      assert.equal((await t.as("hamlet").delete("/events", { queue_id: q.body.queue_id })).status, 200);
      const res = await t.as("hamlet").get("/events", { queue_id: q.body.queue_id, dont_block: true });
      assert.equal(res.body.code, "BAD_EVENT_QUEUE_ID");
    });

    it("collects queues idle for ten minutes", async () => {
      const q = await t.as("hamlet").post("/register", {});
      t.clock.seconds += 601;
      assert.ok(t.deps.queues.collectIdle(t.clock.now()).includes(q.body.queue_id));
      t.clock.seconds -= 601;
    });

    it("rejects malformed register parameters", async () => {
      const res = await t.as("hamlet").post("/register", { event_types: "message" });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, "INVALID_JSON");
      // A capability of a feature level Parley does not know is ignored (register-params.test.ts).
      const notADict = await t.as("hamlet").post("/register", { client_capabilities: ["bulk_message_deletion"] });
      assert.equal(notADict.status, 400);
    });
  });
}
