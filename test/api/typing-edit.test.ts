/**
 * Typing while editing a message (Zulip's set-typing-status-for-message-edit, FL 351, path FL
 * 361), on every store: who is told, the event's shape, and the refusals of access_message and
 * validate_user_can_edit_message (no grace period past the edit limit).
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { MAX_CHANNEL_SIZE_FOR_TYPING } from "../../src/actions/messages/typing.js";
import { getChannelById } from "../../src/store/channels.js";
import { readTx, transaction } from "../../src/store/db.js";
import { subscribeUsers } from "../../src/store/subscriptions.js";
import { archiveChannel, createChannel, sendDirect, sendToChannel, setUserSettings } from "../helpers/conversations.js";
import { setRealm } from "../helpers/edits.js";
import { eventsOf } from "../helpers/channels.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { addUser, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`typing while editing [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["hamlet", "othello", "cordelia"]);
    });
    afterEach(() => t.close());

    const typing = (who: UserName, messageId: number, op = "start") => t.as(who).post(`/messages/${messageId}/typing`, { op });
    const sorted = (...names: UserName[]) => names.map((n) => t.users[n].id).sort((a, b) => a - b);

    it("tells the channel's subscribers who receive typing notifications, with the message's topic", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "plans");
      await setUserSettings(t, "cordelia", { receives_typing_notifications: false });
      t.published.length = 0;
      assert.deepEqual((await typing("hamlet", id)).body, { result: "success", msg: "" });
      assert.equal((await typing("hamlet", id, "stop")).status, 200);
      const events = eventsOf(t, "typing_edit_message");
      assert.deepEqual(events.map((e) => e.event), ["start", "stop"].map((op) => ({
        type: "typing_edit_message", op, sender_id: t.users.hamlet.id, message_id: id, recipient: { type: "channel", channel_id: verona, topic: "plans" },
      })));
      assert.deepEqual(events[0].userIds, sorted("hamlet", "othello"));
    });

    it("tells a direct message's participants, listing exactly who is told", async () => {
      const id = await sendDirect(t, "hamlet", ["othello", "cordelia"]);
      await setUserSettings(t, "cordelia", { receives_typing_notifications: false });
      t.published.length = 0;
      assert.equal((await typing("hamlet", id)).status, 200);
      const [e] = eventsOf(t, "typing_edit_message");
      assert.deepEqual(e.event, { type: "typing_edit_message", op: "start", sender_id: t.users.hamlet.id, message_id: id, recipient: { type: "direct", user_ids: sorted("hamlet", "othello") } });
      assert.deepEqual(e.userIds, sorted("hamlet", "othello"));
    });

    it("reaches queues as the document describes, the empty topic shown by name to clients without empty_topic_name", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "");
      const modern = (await t.as("othello").post("/register", { event_types: ["typing_edit_message"], client_capabilities: { empty_topic_name: true } })).body.queue_id;
      const legacy = (await t.as("othello").post("/register", { event_types: ["typing_edit_message"] })).body.queue_id;
      assert.equal((await typing("hamlet", id)).status, 200);
      const topicOf = async (queue: string) => (await t.as("othello").get("/events", { queue_id: queue, last_event_id: -1, dont_block: true })).body.events[0].recipient.topic;
      assert.equal(await topicOf(modern), "");
      assert.equal(await topicOf(legacy), "general chat");
    });

    it("sends nothing for a channel past the typing size limit", async () => {
      const big = await createChannel(t, "big", ["hamlet"]);
      const extras: number[] = [];
      for (let i = 0; i < MAX_CHANNEL_SIZE_FOR_TYPING; i++) extras.push((await addUser(t)).id);
      const channel = await getChannelById(readTx(t.deps.store), t.realmId, big);
      await transaction(t.deps.store, (tx) => subscribeUsers(tx, channel!.recipient_id!, extras, () => "#c2c2c2"));
      const id = await sendToChannel(t, "hamlet", "big", "crowd");
      t.published.length = 0;
      assert.equal((await typing("hamlet", id)).status, 200);
      assert.deepEqual(eventsOf(t, "typing_edit_message"), []);
    });

    it("refuses whoever could not edit the message now, and the sender's own settings, as Zulip words it", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "plans");
      await createChannel(t, "secret", ["othello"], { invite_only: true });
      const hidden = await sendToChannel(t, "othello", "secret", "x");
      t.published.length = 0;
      assertError(await typing("othello", id), "You don't have permission to edit this message");
      assertError(await typing("hamlet", hidden), "Invalid message(s)");
      assertError(await typing("hamlet", 999_999), "Invalid message(s)");
      assertError(await typing("hamlet", id, "begin"), "Invalid op", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("hamlet").post(`/messages/${id}/typing`), "Missing 'op' argument", "REQUEST_VARIABLE_MISSING");
      await setUserSettings(t, "hamlet", { send_stream_typing_notifications: false, send_private_typing_notifications: false });
      assertError(await typing("hamlet", id), "User has disabled typing notifications for channel messages");
      assertError(await typing("hamlet", await sendDirect(t, "hamlet", ["othello"])), "User has disabled typing notifications for direct messages");
      await setUserSettings(t, "hamlet", {});
      // Editing is limited to 60 s: typing an edit gets no grace past it (edit_limit_buffer 0).
      await setRealm(t, { message_content_edit_limit_seconds: 60 });
      t.clock.seconds += 61;
      assertError(await typing("hamlet", id), "The time limit for editing this message has passed");
      await setRealm(t, { message_content_edit_limit_seconds: null, allow_message_editing: false });
      assertError(await typing("hamlet", id), "Your organization has turned off message editing");
      await setRealm(t, { allow_message_editing: true });
      await archiveChannel(t, verona);
      assertError(await typing("hamlet", id), "Invalid message(s)");
      assert.deepEqual(eventsOf(t, "typing_edit_message"), []);
    });

    it("is open to any sender of the message, guests and bots included", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], async (who) => {
        const id = await sendDirect(t, who, ["othello"]);
        return typing(who, id);
      });
    });
  });
}
