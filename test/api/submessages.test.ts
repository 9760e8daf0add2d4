/**
 * Widgets and POST /submessage (Zulip's process_submessage; FL 354 for its access rules): a
 * `/poll` or `/todo` message carries its widget submessage, readers then vote or tick items, and
 * everyone who sees the message gets `submessage` events. On every store.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { MAX_SUBMESSAGE_CONTENT_LENGTH } from "../../src/actions/messages/submessages.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { archiveChannel, createChannel, sendDirect, sendToChannel } from "../helpers/conversations.js";

const POLL = "/poll Lunch?\nSoup\nSalad";
const vote = (key: string, value = 1) => JSON.stringify({ type: "vote", key, vote: value });

for (const kind of STORE_KINDS) {
  describe(`submessages [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
      await createChannel(t, "Secret", ["iago", "hamlet"], { invite_only: true });
    });
    after(() => t.close());
    beforeEach(() => {
      t.published.length = 0;
    });

    const submit = (user: UserName, messageId: number, content: string, msgType = "widget") =>
      t.as(user).post("/submessage", { message_id: messageId, msg_type: msgType, content });
    const submessagesOf = async (user: UserName, id: number) => (await t.as(user).get(`/messages/${id}`)).body.message.submessages;
    const submessageEvents = () => t.published.filter((e) => e.event.type === "submessage");

    it("stores a poll's widget submessage when the message is sent, in the message and its event", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "polls", "/poll Where? Café\n- Here\n- There");
      const widget = {
        message_id: id,
        sender_id: t.users.hamlet.id,
        msg_type: "widget",
        content: '{"widget_type": "poll", "extra_data": {"question": "Where? Caf\\u00e9", "options": ["Here", "There"]}}',
      };
      const [stored] = await submessagesOf("othello", id);
      assert.deepEqual(stored, { id: stored.id, ...widget });
      const messageEvent = t.published.find((e) => e.event.type === "message");
      assert.deepEqual((messageEvent?.event.message as { submessages: unknown }).submessages, [stored]);
    });

    it("stores a to-do list's tasks, and nothing for messages that only mention a command", async () => {
      const todo = await sendToChannel(t, "hamlet", "Verona", "todo", "/todo Chores\nDishes: tonight\nLaundry");
      const [widget] = await submessagesOf("hamlet", todo);
      assert.deepEqual(JSON.parse(widget.content), {
        widget_type: "todo",
        extra_data: { task_list_title: "Chores", tasks: [{ task: "Dishes", desc: "tonight" }, { task: "Laundry", desc: "" }] },
      });
      for (const content of ["/polls are great", "let us /poll", "/zform x"]) {
        const id = await sendToChannel(t, "hamlet", "Verona", "plain", content);
        assert.deepEqual(await submessagesOf("hamlet", id), [], content);
      }
    });

    it("lets readers vote, publishing the submessage to everyone who sees the message", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "votes", POLL);
      const res = await submit("othello", id, vote("canned,1"));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { result: "success", msg: "" });
      const [event] = submessageEvents();
      const submessages = await submessagesOf("iago", id);
      assert.equal(submessages.length, 2);
      assert.deepEqual(event.event, {
        type: "submessage",
        msg_type: "widget",
        message_id: id,
        submessage_id: submessages[1].id,
        sender_id: t.users.othello.id,
        content: vote("canned,1"),
      });
      assert.deepEqual(event.userIds.sort(), [t.users.iago.id, t.users.hamlet.id, t.users.othello.id].sort());
      assert.deepEqual(submessages[1], { id: submessages[1].id, message_id: id, sender_id: t.users.othello.id, msg_type: "widget", content: vote("canned,1") });
      // A reader who is not subscribed to the public channel may vote too.
      assert.equal((await submit("cordelia", id, vote("canned,0"))).status, 200);
      // The author may add options and change the question; others may only add options.
      assert.equal((await submit("othello", id, JSON.stringify({ type: "new_option", option: "Stew", idx: 1 }))).status, 200);
      assert.equal((await submit("hamlet", id, JSON.stringify({ type: "question", question: "Dinner?" }))).status, 200);
      assertError(await submit("othello", id, JSON.stringify({ type: "question", question: "Mine?" })), "BAD_REQUEST", "You can't edit a question unless you are the author.");
    });

    it("validates what is said to a poll or a to-do list", async () => {
      const poll = await sendToChannel(t, "hamlet", "Verona", "validation", POLL);
      assertError(await submit("othello", poll, "not json"), "BAD_REQUEST", "Invalid json for submessage");
      assertError(await submit("othello", poll, JSON.stringify({ type: "vote", key: "canned,0", vote: 0 })), "BAD_REQUEST", 'Invalid poll data["vote"]');
      assertError(await submit("othello", poll, JSON.stringify({ type: "vote", key: "canned,0", vote: 1, x: 1 })), "BAD_REQUEST", "Unexpected arguments: x");
      assertError(await submit("othello", poll, JSON.stringify({ type: "new_option", option: "x", idx: 5000 })), "BAD_REQUEST", 'poll data["idx"] is too large');
      const todo = await sendToChannel(t, "hamlet", "Verona", "validation", "/todo List\nOne");
      assert.equal((await submit("othello", todo, JSON.stringify({ type: "strike", key: "0,canned" }))).status, 200);
      assertError(await submit("othello", todo, JSON.stringify({ type: "new_task_list_title", title: "Mine" })), "BAD_REQUEST", "You can't edit the task list title unless you are the author.");
      assertError(await submit("othello", todo, JSON.stringify({ type: "new_task", key: 1, task: "x", desc: "" })), "BAD_REQUEST", "completed key is missing from todo data");
      assert.equal((await submessagesOf("hamlet", poll)).length, 1, "refused submessages are not stored");
    });

    it("needs the message's sender to start the widget; then any JSON goes on a message without one", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "free form", "no widget here");
      assertError(await submit("othello", id, "{}", "whatever"), "BAD_REQUEST", "You cannot attach a submessage to this message.");
      assert.equal((await submit("hamlet", id, '{"name": "alice"}', "whatever")).status, 200);
      assert.equal((await submit("othello", id, "[1, 2]", "whatever")).status, 200);
      assert.deepEqual(
        (await submessagesOf("hamlet", id)).map((s: { sender_id: number; msg_type: string }) => [s.sender_id, s.msg_type]),
        [
          [t.users.hamlet.id, "whatever"],
          [t.users.othello.id, "whatever"],
        ],
      );
    });

    it("answers Invalid message(s) for messages the user cannot read or that can no longer change", async () => {
      const secret = await sendToChannel(t, "hamlet", "Secret", "hidden", POLL);
      assertError(await submit("othello", secret, vote("canned,0")), "BAD_REQUEST", "Invalid message(s)");
      const direct = await sendDirect(t, "hamlet", ["iago"], POLL);
      assertError(await submit("othello", direct, vote("canned,0")), "BAD_REQUEST", "Invalid message(s)");
      assert.equal((await submit("iago", direct, vote("canned,0"))).status, 200);
      assert.deepEqual(submessageEvents().at(-1)?.userIds.sort(), [t.users.iago.id, t.users.hamlet.id].sort());
      assertError(await submit("othello", 999999, vote("canned,0")), "BAD_REQUEST", "Invalid message(s)");
      const channelId = await createChannel(t, "Closing", ["hamlet", "othello"]);
      const archived = await sendToChannel(t, "hamlet", "Closing", "old", POLL);
      await archiveChannel(t, channelId);
      assertError(await submit("othello", archived, vote("canned,0")), "BAD_REQUEST", "Invalid message(s)");
    });

    it("bounds the content and the type", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "bounds", "plain");
      const long = JSON.stringify("x".repeat(MAX_SUBMESSAGE_CONTENT_LENGTH));
      assertError(await submit("hamlet", id, long, "x"), "BAD_REQUEST", `content is too long (limit: ${MAX_SUBMESSAGE_CONTENT_LENGTH} characters)`);
      assertError(await submit("hamlet", id, "{}", "x".repeat(51)), "BAD_REQUEST", "msg_type is too long (limit: 50 characters)");
      assertError(await t.as("hamlet").post("/submessage", { message_id: id, msg_type: "widget" }), "REQUEST_VARIABLE_MISSING", "Missing 'content' argument");
    });

    it("keeps widget messages' content from being edited", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "edits", POLL);
      assertError(await t.as("hamlet").patch(`/messages/${id}`, { content: "/poll Other" }), "BAD_REQUEST", "Widgets cannot be edited.");
    });
  });
}
