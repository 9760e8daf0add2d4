/** Editing message content (PATCH /messages/{id} with `content`), on every store. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, beforeEach, describe, it } from "node:test";
import { insertAttachment } from "../../src/store/attachments.js";
import { readTx, transaction } from "../../src/store/db.js";
import { archiveChannel, createChannel, sendDirect, sendToChannel, userMessageFlags } from "../helpers/conversations.js";
import { eventsOfType, setRealm } from "../helpers/edits.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { addUser, assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

for (const kind of STORE_KINDS) {
  describe(`edit message content [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "hamlet", "othello", "cordelia"]);
    });
    after(() => t.close());
    beforeEach(() => setRealm(t, { allow_message_editing: true, message_content_edit_limit_seconds: null }));

    it("lets the sender edit, re-renders, records the edit and tells every recipient", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "lunch", "Hello *world*");
      t.clock.seconds += 30;
      const from = t.published.length;
      const res = await t.as("hamlet").patch(`/messages/${id}`, { content: "Goodbye **world**" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { result: "success", msg: "", detached_uploads: [] });

      const got = (await t.as("othello").get(`/messages/${id}`)).body;
      assert.equal(got.raw_content, "Goodbye **world**");
      assert.equal(got.message.content, "<p>Goodbye <strong>world</strong></p>");
      assert.equal(got.message.last_edit_timestamp, t.clock.seconds);
      assert.equal(got.message.last_moved_timestamp, undefined);
      assert.deepEqual(got.message.edit_history, [
        { user_id: t.users.hamlet.id, timestamp: t.clock.seconds, prev_content: "Hello *world*", prev_rendered_content: "<p>Hello <em>world</em></p>" },
      ]);

      const events = eventsOfType(t, "update_message", from);
      const recipients = events.flatMap((e) => e.userIds).sort((a, b) => a - b);
      assert.deepEqual(recipients, [t.users.iago.id, t.users.hamlet.id, t.users.othello.id, t.users.cordelia.id].sort((a, b) => a - b));
      const { flags, ...event } = events.find((e) => e.userIds.includes(t.users.othello.id))!.event;
      assert.deepEqual(flags, []);
      assert.deepEqual(event, {
        type: "update_message",
        user_id: t.users.hamlet.id,
        edit_timestamp: t.clock.seconds,
        message_id: id,
        message_ids: [id],
        rendering_only: false,
        orig_content: "Hello *world*",
        orig_rendered_content: "<p>Hello <em>world</em></p>",
        content: "Goodbye **world**",
        rendered_content: "<p>Goodbye <strong>world</strong></p>",
        is_me_message: false,
        stream_name: "Verona",
        stream_id: verona,
      });
      assert.deepEqual(events.find((e) => e.userIds.includes(t.users.hamlet.id))!.event.flags, ["read"]);
    });

    it("updates mention flags: added mentions flag the user, removed ones clear", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "mentions", "no mention");
      assert.equal(await userMessageFlags(t, "othello", id), 0);
      const from = t.published.length;
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "hi @**Othello, the Moor of Venice**" })).status, 200);
      assert.equal(await userMessageFlags(t, "othello", id), 8);
      const toOthello = eventsOfType(t, "update_message", from).find((e) => e.userIds.includes(t.users.othello.id))!;
      assert.deepEqual(toOthello.event.flags, ["mentioned"]);
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "never mind" })).status, 200);
      assert.equal(await userMessageFlags(t, "othello", id), 0);
    });

    it("refuses content edits by anyone but the sender, administrators included", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "mine", "my words");
      for (const other of ["othello", "iago", "desdemona"] as const) {
        assertError(await t.as(other).patch(`/messages/${id}`, { content: "theirs" }), "You don't have permission to edit this message");
      }
      assert.equal((await t.as("hamlet").get(`/messages/${id}`)).body.raw_content, "my words");
    });

    it("follows allow_message_editing", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "switch", "before");
      await setRealm(t, { allow_message_editing: false });
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { content: "after" }), "Your organization has turned off message editing");
      await setRealm(t, { allow_message_editing: true });
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "after" })).status, 200);
    });

    it("enforces message_content_edit_limit_seconds with Zulip's 20-second grace", async () => {
      await setRealm(t, { message_content_edit_limit_seconds: 100 });
      const id = await sendToChannel(t, "hamlet", "Verona", "limits", "v1");
      t.clock.seconds += 120;
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "v2" })).status, 200);
      t.clock.seconds += 1;
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { content: "v3" }), "The time limit for editing this message has passed");
      await setRealm(t, { message_content_edit_limit_seconds: null });
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "v3" })).status, 200);
    });

    it("checks prev_content_sha256", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "sha", "original");
      assertError(
        await t.as("hamlet").patch(`/messages/${id}`, { content: "x", prev_content_sha256: sha256("something else") }),
        "'prev_content_sha256' value does not match the expected value.",
        "EXPECTATION_MISMATCH",
      );
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "x", prev_content_sha256: sha256("original") })).status, 200);
    });

    it("refuses malformed requests before changing anything", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "shape", "text");
      assertError(await t.as("hamlet").patch(`/messages/${id}`, {}), "Nothing to change");
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { topic: "shape" }), "Nothing to change");
      assertError(
        await t.as("hamlet").patch(`/messages/${id}`, { content: "y", propagate_mode: "change_all" }),
        "Invalid propagate_mode without topic edit",
      );
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { content: "y", propagate_mode: "sideways" }), "Invalid propagate_mode", "REQUEST_VARIABLE_INVALID");
      const other = await createChannel(t, "Elsinore", ["hamlet"]);
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { content: "y", stream_id: other }), "Cannot change message content while changing channel");
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { topic: "bad\u0007topic" }), "Invalid character in topic, at position 4!");
      assert.equal((await t.as("hamlet").get(`/messages/${id}`)).body.raw_content, "text");
    });

    it("keeps an emptied message as (deleted)", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "empty", "soon gone");
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "   " })).status, 200);
      assert.equal((await t.as("hamlet").get(`/messages/${id}`)).body.raw_content, "(deleted)");
    });

    it("edits direct messages for their participants only; they cannot get topics or channels", async () => {
      const id = await sendDirect(t, "hamlet", ["cordelia"], "secret");
      const from = t.published.length;
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "new secret" })).status, 200);
      const events = eventsOfType(t, "update_message", from);
      assert.deepEqual(events.flatMap((e) => e.userIds).sort(), [t.users.hamlet.id, t.users.cordelia.id].sort());
      assert.equal(events[0].event.stream_id, undefined);
      assert.deepEqual(events[0].event.message_ids, [id]);
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { topic: "t" }), "Direct messages cannot have topics.");
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { stream_id: verona }), "Direct messages cannot be moved to channels.");
    });

    it("hides messages the caller cannot see, and archived channels' messages", async () => {
      const dm = await sendDirect(t, "othello", ["cordelia"], "not for hamlet");
      const hidden = await t.as("hamlet").patch(`/messages/${dm}`, { content: "x" });
      const missing = await t.as("hamlet").patch(`/messages/99999999`, { content: "x" });
      assertError(hidden, "Invalid message(s)");
      assert.deepEqual(hidden.body, missing.body);
      const channel = await createChannel(t, "Ruins", ["hamlet"]);
      const id = await sendToChannel(t, "hamlet", "Ruins", "old", "text");
      await archiveChannel(t, channel);
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { content: "x" }), "Invalid message(s)");
    });

    it("refuses editing widgets", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "poll", "/poll Lunch?");
      await transaction(t.deps.store, (tx) =>
        tx.db.insertInto("submessages").values({ message_id: id, sender_id: t.users.hamlet.id, msg_type: "widget", content: "{}" }).execute(),
      );
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { content: "/poll Dinner?" }), "Widgets cannot be edited.");
    });

    it("refuses a new channel-wide mention in a large channel without permission", async () => {
      const crowd = [];
      for (let i = 0; i < 16; i++) crowd.push((await addUser(t)).id);
      const res = await t.as("iago").post("/channels/create", { name: "Crowd", subscribers: [t.users.hamlet.id, ...crowd] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const id = await sendToChannel(t, "hamlet", "Crowd", "t", "hi");
      assertError(
        await t.as("hamlet").patch(`/messages/${id}`, { content: "hi @**all**" }),
        "You do not have permission to use channel wildcard mentions in this channel.",
        "STREAM_WILDCARD_MENTION_NOT_ALLOWED",
      );
      const small = await sendToChannel(t, "hamlet", "Verona", "wildcard", "hi");
      assert.equal((await t.as("hamlet").patch(`/messages/${small}`, { content: "hi @**all**" })).status, 200);
      assert.equal(await userMessageFlags(t, "cordelia", small), 16);
    });

    it("links and unlinks uploads, reporting the sender's detached ones", async () => {
      const pathId = `${t.realmId}/ab/cdefgh/notes.txt`;
      await transaction(t.deps.store, (tx) =>
        insertAttachment(tx, {
          realm_id: t.realmId,
          owner_id: t.users.hamlet.id,
          path_id: pathId,
          file_name: "notes.txt",
          size: 5,
          content_type: "text/plain",
          create_time: t.clock.seconds,
        }),
      );
      const id = await sendToChannel(t, "hamlet", "Verona", "files", "nothing yet");
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: `[notes](/user_uploads/${pathId})` })).status, 200);
      const links = await readTx(t.deps.store).db.selectFrom("attachment_messages").selectAll().where("message_id", "=", id).execute();
      assert.equal(links.length, 1);
      const res = await t.as("hamlet").patch(`/messages/${id}`, { content: "no more files" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.detached_uploads.length, 1);
      // Zulip's attachment object at FL 472: create_time in seconds (FL 443), message_ids (FL 472).
      assert.deepEqual(res.body.detached_uploads[0], { id: res.body.detached_uploads[0].id, name: "notes.txt", path_id: pathId, size: 5, create_time: t.clock.seconds, message_ids: [] });
    });

    it("keeps full-text search in step with edits", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "search", "alpha");
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "omegaword" })).status, 200);
      const search = async (word: string) =>
        (await t.as("hamlet").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand: word }] }))
          .body.messages.map((m: { id: number }) => m.id);
      assert.deepEqual(await search("omegaword"), [id]);
      assert.deepEqual(await search("alpha"), []);
    });

    it("renders Markdown previews", async () => {
      const res = await t.as("hamlet").post("/messages/render", { content: "**foo**" });
      assert.deepEqual(res.body, { result: "success", msg: "", rendered: "<p><strong>foo</strong></p>" });
      assertError(await t.as("hamlet").post("/messages/render", {}), "Missing 'content' argument", "REQUEST_VARIABLE_MISSING");
    });

    it("links only channels the author may see (issue 16, F15)", async () => {
      const open = await createChannel(t, "Openroom", ["hamlet"]);
      const hidden = await createChannel(t, "Hideout", ["iago"], { invite_only: true });
      const render = async (user: "hamlet" | "othello" | "polonius" | "iago", content: string) =>
        String((await t.as(user).post("/messages/render", { content })).body.rendered);
      for (const user of ["hamlet", "othello", "iago"] as const) assert.match(await render(user, "#**Openroom>hello**"), new RegExp(`data-stream-id="${open}"`), user);
      // A guest sees only the channels they are in; a member, no private channel they are not in.
      assert.doesNotMatch(await render("polonius", "#**Openroom>hello** #**Openroom**"), /data-stream-id/);
      assert.doesNotMatch(await render("othello", "#**Hideout**"), /data-stream-id/);
      assert.match(await render("iago", "#**Hideout**"), new RegExp(`data-stream-id="${hidden}"`));
    });

    it("renders over-long previews as they would be sent: truncated (issue 16, F3)", async () => {
      // 1 MB of emphasis took seconds of the only thread; only what a message can hold is rendered.
      const res = await t.as("hamlet").post("/messages/render", { content: "*a* ".repeat(250_000) });
      assert.equal(res.status, 200);
      assert.ok(res.body.rendered.length < 40 * 10_000, `${res.body.rendered.length} characters`);
      assert.match(res.body.rendered, /\[message truncated\]<\/p>$/);
      // Past what any request body may carry it is refused before it is parsed (an 8 MB one took 13 s).
      const huge = await t.as("hamlet").post("/messages/render", { content: "a".repeat(3 * 1024 * 1024) });
      assert.deepEqual([huge.status, huge.body.msg], [413, "Request body is too large"]);
    });
  });
}
