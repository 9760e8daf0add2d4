/** A message's edit history (spec 4.15, GET /messages/{id}/history), on every store. */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { createChannel, sendDirect, sendToChannel } from "../helpers/conversations.js";
import { setRealm } from "../helpers/edits.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const inserted = (html: string) => `<span class="highlight_text_inserted">${html}</span>`;
const deleted = (html: string) => `<span class="highlight_text_deleted">${html}</span>`;

for (const kind of STORE_KINDS) {
  describe(`message edit history [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    let denmark: number;
    const history = async (id: number, params: Record<string, unknown> = {}, as: "hamlet" | "cordelia" | "othello" = "hamlet") => {
      const res = await t.as(as).get(`/messages/${id}/history`, params);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.message_history;
    };

    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
      denmark = await createChannel(t, "Denmark", ["iago", "hamlet"]);
    });
    after(() => t.close());
    beforeEach(() => setRealm(t, { allow_edit_history: true }));

    it("has just the original snapshot for a message never edited", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "plain", "Just *this*");
      assert.deepEqual(await history(id), [
        { content: "Just *this*", rendered_content: "<p>Just <em>this</em></p>", timestamp: t.clock.seconds, topic: "plain", user_id: t.users.hamlet.id },
      ]);
      assert.equal((await t.as("hamlet").get(`/messages/${id}`)).body.message.edit_history, undefined);
    });

    it("lists snapshots oldest first with exactly the fields each edit changed", async () => {
      const sent = t.clock.seconds;
      const id = await sendToChannel(t, "hamlet", "Verona", "party at my houz", "Hello!");
      t.clock.seconds += 10;
      const first = t.clock.seconds;
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "Howdy!", topic: "party at my house" })).status, 200);
      t.clock.seconds += 10;
      const second = t.clock.seconds;
      assert.equal((await t.as("iago").patch(`/messages/${id}`, { stream_id: denmark })).status, 200);
      t.clock.seconds += 10;
      const third = t.clock.seconds;
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "Howdy, all!" })).status, 200);

      assert.deepEqual(await history(id), [
        { content: "Hello!", rendered_content: "<p>Hello!</p>", timestamp: sent, topic: "party at my houz", user_id: t.users.hamlet.id },
        {
          content: "Howdy!",
          rendered_content: "<p>Howdy!</p>",
          timestamp: first,
          topic: "party at my house",
          prev_topic: "party at my houz",
          prev_content: "Hello!",
          prev_rendered_content: "<p>Hello!</p>",
          content_html_diff: `<div><p>${deleted("Hello!")}${inserted("Howdy!")}</p></div>`,
          user_id: t.users.hamlet.id,
        },
        {
          content: "Howdy!",
          rendered_content: "<p>Howdy!</p>",
          timestamp: second,
          topic: "party at my house",
          prev_stream: verona,
          stream: denmark,
          user_id: t.users.iago.id,
        },
        {
          content: "Howdy, all!",
          rendered_content: "<p>Howdy, all!</p>",
          timestamp: third,
          topic: "party at my house",
          prev_content: "Howdy!",
          prev_rendered_content: "<p>Howdy!</p>",
          content_html_diff: `<div><p>${deleted("Howdy!")}${inserted("Howdy, all!")}</p></div>`,
          user_id: t.users.hamlet.id,
        },
      ]);
      // The message object lists the same edits, most recent first.
      const m = (await t.as("hamlet").get(`/messages/${id}`)).body.message;
      assert.deepEqual(
        m.edit_history.map((e: { timestamp: number }) => e.timestamp),
        [third, second, first],
      );
      // Readers of the public channel's history may see it too.
      assert.equal((await history(id, {}, "cordelia")).length, 4);
    });

    it("shows the empty topic by its display name unless allow_empty_topic_name", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "", "in general chat");
      t.clock.seconds += 1;
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { topic: "named" })).status, 200);
      const shown = await history(id);
      assert.equal(shown[0].topic, "general chat");
      assert.equal(shown[1].prev_topic, "general chat");
      assert.equal(shown[1].topic, "named");
      const raw = await history(id, { allow_empty_topic_name: true });
      assert.equal(raw[0].topic, "");
      assert.equal(raw[1].prev_topic, "");
    });

    it("gives direct messages an empty topic", async () => {
      const id = await sendDirect(t, "hamlet", ["othello"], "psst");
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "PSST" })).status, 200);
      const shown = await history(id, {}, "othello");
      assert.deepEqual(
        shown.map((s: { topic: string }) => s.topic),
        ["", ""],
      );
    });

    it("hides missing and invisible messages alike", async () => {
      const dm = await sendDirect(t, "othello", ["iago"], "not for hamlet");
      const hidden = await t.as("hamlet").get(`/messages/${dm}/history`);
      assertError(hidden, "Invalid message(s)");
      assert.deepEqual(hidden.body, (await t.as("hamlet").get(`/messages/424242/history`)).body);
    });

    it("is refused when the organization disables edit history", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "off", "v1");
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "v2" })).status, 200);
      await setRealm(t, { allow_edit_history: false });
      assertError(await t.as("hamlet").get(`/messages/${id}/history`), "Message edit history is disabled in this organization");
      assert.equal((await t.as("hamlet").get(`/messages/${id}`)).body.message.edit_history, undefined);
    });
  });
}
