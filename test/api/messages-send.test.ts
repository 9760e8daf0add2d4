/** Sending messages and fetching one (spec 4.6), on every store. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`send and fetch messages [${kind}]`, () => {
    let t: TestRealm;
    let channelId: number;
    before(async () => {
      t = await createTestRealm(kind);
      const res = await t.as("iago").post("/channels/create", {
        name: "Verona",
        description: "The **fair** city",
        subscribers: [t.users.iago.id, t.users.hamlet.id, t.users.othello.id],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      channelId = res.body.id;
    });
    after(() => t.close());

    it("sends to a channel by name and fetches the message", async () => {
      const sent = await t.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "greetings", content: "Hello @**Iago**" });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const id = sent.body.id;
      const got = await t.as("iago").get(`/messages/${id}`);
      assert.equal(got.status, 200, JSON.stringify(got.body));
      const m = got.body.message;
      assert.equal(got.body.raw_content, "Hello @**Iago**");
      assert.equal(m.id, id);
      assert.equal(m.type, "stream");
      assert.equal(m.stream_id, channelId);
      assert.equal(m.display_recipient, "Verona");
      assert.equal(m.subject, "greetings");
      assert.equal(m.sender_id, t.users.hamlet.id);
      assert.equal(m.content_type, "text/html");
      assert.match(m.content, /user-mention/);
      assert.ok(m.flags.includes("mentioned"));
      assert.ok(!m.flags.includes("read"));
      assert.equal(m.sender_realm_str, "zulip");
      const raw = await t.as("iago").get(`/messages/${id}`, { apply_markdown: false });
      assert.equal(raw.body.message.content, "Hello @**Iago**");
      assert.equal(raw.body.message.content_type, "text/x-markdown");
    });

    it("sends to a channel by id and a direct message by ids and by emails", async () => {
      const byId = await t.as("othello").post("/messages", { type: "channel", to: String(channelId), topic: "x", content: "hi" });
      assert.equal(byId.status, 200, JSON.stringify(byId.body));
      const dm = await t.as("othello").post("/messages", { type: "direct", to: [t.users.cordelia.id], content: "psst" });
      assert.equal(dm.status, 200, JSON.stringify(dm.body));
      const got = await t.as("cordelia").get(`/messages/${dm.body.id}`);
      assert.equal(got.body.message.type, "private");
      assert.deepEqual(got.body.message.display_recipient.map((u: { id: number }) => u.id).sort(), [t.users.othello.id, t.users.cordelia.id].sort());
      const group = await t.as("othello").post("/messages", { type: "private", to: "cordelia@zulip.test,hamlet@zulip.test", content: "group" });
      assert.equal(group.status, 200, JSON.stringify(group.body));
      assert.equal((await t.as("hamlet").get(`/messages/${group.body.id}`)).status, 200);
    });

    it("hides direct messages between others, with the same error as a missing message", async () => {
      const dm = await t.as("othello").post("/messages", { type: "direct", to: [t.users.cordelia.id], content: "secret" });
      const hidden = await t.as("hamlet").get(`/messages/${dm.body.id}`);
      const missing = await t.as("hamlet").get(`/messages/999999`);
      assert.equal(hidden.status, 400);
      assert.deepEqual(hidden.body, missing.body);
      assert.deepEqual(missing.body, { result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" });
    });

    it("refuses bad sends", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ type: "stream", to: "Nowhere", topic: "t", content: "x" }, "Channel 'Nowhere' does not exist"],
        [{ type: "stream", to: "Verona", content: "x" }, "Missing 'topic' argument"],
        [{ type: "stream", to: "Verona", topic: "t", content: "   " }, "Message must not be empty"],
        [{ type: "direct", to: [424242], content: "x" }, "Invalid user ID 424242"],
        [{ type: "direct", to: "ghost@zulip.test", content: "x" }, "Invalid email 'ghost@zulip.test'"],
        [{ type: "bogus", to: "Verona", content: "x" }, "Invalid type"],
        // Ids past 2^53 (found by fuzzing: 32 nines read 1e+31, a 500 on PostgreSQL); past
        // PostgreSQL's INTEGER range they are merely unknown.
        [{ type: "direct", to: "9".repeat(32), content: "x" }, "Invalid data type for recipients"],
        [{ type: "direct", to: `[${"9".repeat(32)}]`, content: "x" }, "Invalid data type for recipients"],
        [{ type: "stream", to: "9".repeat(32), topic: "t", content: "x" }, "Invalid channel ID"],
        [{ type: "direct", to: [2 ** 31], content: "x" }, `Invalid user ID ${2 ** 31}`],
        [{ type: "stream", to: 2 ** 31, topic: "t", content: "x" }, `Channel with ID '${2 ** 31}' does not exist`],
      ];
      for (const [params, msg] of cases) {
        const res = await t.as("hamlet").post("/messages", params);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.msg, msg);
      }
    });

    it("publishes a message event to every recipient after commit", async () => {
      t.published.length = 0;
      const sent = await t.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "events", content: "ping" });
      const events = t.published.filter((e) => e.event.type === "message");
      const recipients = events.flatMap((e) => e.userIds).sort();
      assert.deepEqual(recipients, [t.users.iago.id, t.users.hamlet.id, t.users.othello.id].sort());
      assert.ok(events.every((e) => (e.event.message as { id: number }).id === sent.body.id));
      const senderEvent = events.find((e) => e.userIds.includes(t.users.hamlet.id));
      assert.ok((senderEvent?.event.flags as string[]).includes("read"));
    });
  });
}
