/** Personal message flags and the deprecated mark-as-read endpoints, on every store. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FLAG_BITS } from "../../src/lib/flags.js";
import { createChannel, sendDirect, sendToChannel, userMessageFlags } from "../helpers/conversations.js";
import { eventsOfType } from "../helpers/edits.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const { read, starred, historical } = FLAG_BITS;

for (const kind of STORE_KINDS) {
  describe(`message flags [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    let secret: number;
    const flags = (params: Record<string, unknown>) => t.as("othello").post("/messages/flags", params);

    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
      secret = await createChannel(t, "Secret", ["iago", "hamlet"], { invite_only: true });
      await createChannel(t, "Denmark", ["iago", "hamlet"]);
    });
    after(() => t.close());

    it("stars and unstars, reporting exactly the messages that changed", async () => {
      const a = await sendToChannel(t, "hamlet", "Verona", "stars", "a");
      const b = await sendToChannel(t, "hamlet", "Verona", "stars", "b");
      const from = t.published.length;
      const res = await flags({ messages: [a, b], op: "add", flag: "starred" });
      assert.deepEqual(res.body, { result: "success", msg: "", messages: [a, b] });
      assert.equal(await userMessageFlags(t, "othello", a), starred);
      const again = t.published.length;
      assert.equal((await flags({ messages: [a], op: "add", flag: "starred" })).status, 200);
      assert.deepEqual(eventsOfType(t, "update_message_flags", again)[0].event.messages, []);
      assert.equal((await flags({ messages: [b], op: "remove", flag: "starred" })).status, 200);
      assert.equal(await userMessageFlags(t, "othello", b), 0);
      const events = eventsOfType(t, "update_message_flags", from);
      assert.deepEqual(events[0], {
        event: { type: "update_message_flags", op: "add", operation: "add", flag: "starred", messages: [a, b], all: false },
        userIds: [t.users.othello.id],
      });
      assert.deepEqual(events[2].event, { type: "update_message_flags", op: "remove", operation: "remove", flag: "starred", messages: [b], all: false });
    });

    it("gives a historical row when starring a readable message the user never received", async () => {
      const id = await sendToChannel(t, "hamlet", "Denmark", "history", "old news");
      assert.equal(await userMessageFlags(t, "othello", id), null);
      const from = t.published.length;
      assert.equal((await flags({ messages: [id], op: "add", flag: "read" })).status, 200);
      assert.equal(await userMessageFlags(t, "othello", id), null, "read is already implied without a row");
      assert.deepEqual(eventsOfType(t, "update_message_flags", from)[0].event.messages, []);
      assert.equal((await flags({ messages: [id], op: "add", flag: "starred" })).status, 200);
      assert.equal(await userMessageFlags(t, "othello", id), read | historical | starred);
      const m = (await t.as("othello").get(`/messages/${id}`)).body.message;
      assert.deepEqual([...m.flags].sort(), ["historical", "read", "starred"]);
    });

    it("refuses to flag messages the user cannot read, missing ones included", async () => {
      const hidden = await sendToChannel(t, "hamlet", "Secret", "t", "x");
      const dm = await sendDirect(t, "hamlet", ["iago"], "x");
      const mine = await sendToChannel(t, "hamlet", "Verona", "t", "x");
      for (const id of [hidden, dm, 999999]) {
        assertError(await flags({ messages: [mine, id], op: "add", flag: "starred" }), "Invalid message(s)");
      }
      assert.equal(await userMessageFlags(t, "othello", mine), 0, "nothing changed");
    });

    it("validates the flag and the operation as Zulip does", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "t", "x");
      assertError(await flags({ messages: [id], op: "add", flag: "bogus" }), "Invalid flag: 'bogus'");
      for (const flag of ["mentioned", "historical", "wildcard_mentioned", "has_alert_word"]) {
        assertError(await flags({ messages: [id], op: "add", flag }), `Flag not editable: '${flag}'`);
      }
      assertError(await flags({ messages: [id], op: "toggle", flag: "read" }), "Invalid message flag operation: 'toggle'");
      assertError(await flags({ messages: "nope", op: "add", flag: "read" }), 'Argument "messages" is not valid JSON.', "INVALID_JSON");
      assert.equal((await flags({ messages: [id], op: "add", flag: "collapsed" })).status, 200);
      assert.equal(await userMessageFlags(t, "othello", id), FLAG_BITS.collapsed);
    });

    it("marks unread with details, skipping channels the user is not subscribed to", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "unread", "hi @**Othello, the Moor of Venice**");
      const dm = await sendDirect(t, "hamlet", ["othello", "iago"], "group");
      const elsewhere = await sendToChannel(t, "hamlet", "Denmark", "t", "x");
      assert.equal((await flags({ messages: [id, dm], op: "add", flag: "read" })).status, 200);
      const from = t.published.length;
      const res = await flags({ messages: [id, dm, elsewhere], op: "remove", flag: "read" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.ignored_because_not_subscribed_channels, [(await t.as("iago").get(`/messages/${elsewhere}`)).body.message.stream_id]);
      const [event] = eventsOfType(t, "update_message_flags", from);
      assert.deepEqual(event.event.messages, [id, dm]);
      assert.deepEqual(event.event.message_details, {
        [id]: { type: "stream", stream_id: verona, topic: "unread", mentioned: true },
        [dm]: { type: "private", user_ids: [t.users.iago.id, t.users.hamlet.id].sort((a, b) => a - b) },
      });
      assert.equal(((await userMessageFlags(t, "othello", id)) ?? 0) & read, 0);
    });

    it("marks everything read", async () => {
      const a = await sendToChannel(t, "hamlet", "Verona", "all", "a");
      const b = await sendDirect(t, "hamlet", ["othello"], "b");
      const from = t.published.length;
      const res = await t.as("othello").post("/mark_all_as_read");
      assert.deepEqual(res.body, { result: "success", msg: "", complete: true });
      assert.equal((await userMessageFlags(t, "othello", a))! & read, read);
      assert.equal((await userMessageFlags(t, "othello", b))! & read, read);
      assert.deepEqual(eventsOfType(t, "update_message_flags", from), [
        { event: { type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [], all: true }, userIds: [t.users.othello.id] },
      ]);
    });

    it("marks a channel read", async () => {
      const a = await sendToChannel(t, "hamlet", "Verona", "one", "a");
      const b = await sendToChannel(t, "hamlet", "Verona", "two", "b");
      const dm = await sendDirect(t, "hamlet", ["othello"], "stays unread");
      const from = t.published.length;
      const res = await t.as("othello").post("/mark_stream_as_read", { stream_id: verona });
      assert.deepEqual(res.body, { result: "success", msg: "" });
      assert.deepEqual(eventsOfType(t, "update_message_flags", from)[0].event.messages, [a, b]);
      assert.equal((await userMessageFlags(t, "othello", dm))! & read, 0);
      assertError(await t.as("othello").post("/mark_stream_as_read", { stream_id: secret }), "Invalid channel ID");
      assertError(await t.as("othello").post("/mark_stream_as_read", {}), "Missing 'stream_id' argument", "REQUEST_VARIABLE_MISSING");
    });

    it("marks a topic read", async () => {
      const a = await sendToChannel(t, "hamlet", "Verona", "Lunch", "a");
      const other = await sendToChannel(t, "hamlet", "Verona", "dinner", "b");
      const from = t.published.length;
      const res = await t.as("othello").post("/mark_topic_as_read", { stream_id: verona, topic_name: "lunch" });
      assert.deepEqual(res.body, { result: "success", msg: "" });
      assert.deepEqual(eventsOfType(t, "update_message_flags", from)[0].event.messages, [a]);
      assert.equal((await userMessageFlags(t, "othello", other))! & read, 0);
      assertError(await t.as("othello").post("/mark_topic_as_read", { stream_id: verona, topic_name: "brunch" }), "No such topic 'brunch'");
      assertError(await t.as("othello").post("/mark_topic_as_read", { stream_id: secret, topic_name: "t" }), "Invalid channel ID");
    });
  });
}
