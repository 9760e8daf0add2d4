/** Moving messages to another channel (PATCH /messages/{id} with stream_id), on every store. */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { createChannel, sendToChannel, subscribe, userMessageFlags } from "../helpers/conversations.js";
import { eventsOfType, groupId, noticesSince, resetMoveSettings, setRealm, setRealmGroup } from "../helpers/edits.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`move messages to another channel [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    let denmark: number;
    let hamlet: string;
    const get = async (id: number, as: UserName = "hamlet") => (await t.as(as).get(`/messages/${id}`, { allow_empty_topic_name: true })).body;
    const move = (as: UserName, id: number, params: Record<string, unknown>) => t.as(as).patch(`/messages/${id}`, params);

    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "shiva", "hamlet", "othello", "cordelia"]);
      denmark = await createChannel(t, "Denmark", ["iago", "hamlet", "othello"]);
      hamlet = `@_**King Hamlet|${t.users.hamlet.id}**`;
    });
    after(() => t.close());
    beforeEach(() => resetMoveSettings(t));

    it("moves messages to another channel; readers who cannot follow lose them", async () => {
      await subscribe(t, verona, ["polonius"]);
      const id = await sendToChannel(t, "hamlet", "Verona", "travel", "to Denmark");
      t.clock.seconds += 3;
      const from = t.published.length;
      const res = await move("hamlet", id, { stream_id: denmark, send_notification_to_old_thread: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const m = (await get(id)).message;
      assert.equal(m.stream_id, denmark);
      assert.equal(m.display_recipient, "Denmark");
      assert.equal(m.last_moved_timestamp, t.clock.seconds);
      assert.deepEqual(m.edit_history, [{ user_id: t.users.hamlet.id, timestamp: t.clock.seconds, prev_stream: verona, stream: denmark }]);
      const event = eventsOfType(t, "update_message", from).find((e) => e.userIds.includes(t.users.othello.id))!.event;
      assert.equal(event.new_stream_id, denmark);
      assert.equal(event.stream_id, verona);
      assert.equal(event.orig_subject, "travel");
      assert.equal(event.subject, undefined);
      // Cordelia (a member) keeps read access to the public channel's history but no row.
      assert.equal(await userMessageFlags(t, "cordelia", id), null);
      assert.equal((await t.as("cordelia").get(`/messages/${id}`)).status, 200);
      // Polonius (a guest) is not subscribed to Denmark: the message is gone for him.
      const deletions = eventsOfType(t, "delete_message", from);
      assert.deepEqual(deletions, [
        { event: { type: "delete_message", message_ids: [id], message_type: "stream", stream_id: verona, topic: "travel" }, userIds: [t.users.polonius.id] },
      ]);
      assertError(await t.as("polonius").get(`/messages/${id}`), "Invalid message(s)");
      assert.deepEqual(
        noticesSince(t, from).map((n) => [n.streamId, n.topic, n.content]),
        [
          [denmark, "travel", `This topic was moved here from #**Verona>travel** by ${hamlet}.`],
          [verona, "travel", `This topic was moved to #**Denmark>travel** by ${hamlet}.`],
        ],
      );
    });

    it("gives subscribers of a protected-history destination read rows, and removes the others'", async () => {
      const secret = await createChannel(t, "Secret", ["iago", "hamlet", "desdemona"], { invite_only: true, history_public_to_subscribers: false });
      const id = await sendToChannel(t, "hamlet", "Verona", "hush", "classified");
      const from = t.published.length;
      assert.equal((await move("hamlet", id, { stream_id: secret, topic: "hushed" })).status, 200);
      assert.equal(await userMessageFlags(t, "desdemona", id), 1);
      assert.equal((await get(id, "desdemona")).message.subject, "hushed");
      assert.equal(await userMessageFlags(t, "othello", id), null);
      assertError(await t.as("othello").get(`/messages/${id}`), "Invalid message(s)");
      const deleted = eventsOfType(t, "delete_message", from).flatMap((e) => e.userIds).sort((a, b) => a - b);
      const readers: UserName[] = ["shiva", "othello", "cordelia", "polonius"];
      assert.deepEqual(deleted, readers.map((u) => t.users[u].id).sort((a, b) => a - b));
      const updated = eventsOfType(t, "update_message", from).flatMap((e) => e.userIds);
      assert.ok(!updated.includes(t.users.othello.id));
      assert.ok(updated.includes(t.users.desdemona.id));
    });

    it("needs permission to move out of the channel, access to and posting rights in the destination", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "perm-channel", "x");
      await setRealmGroup(t, "can_move_messages_between_channels_group_id", "role:administrators");
      assertError(await move("hamlet", id, { stream_id: denmark }), "You don't have permission to move this message");
      assert.equal((await get(id)).message.stream_id, verona);
      const res = await t.as("iago").post("/channels/create", {
        name: "Lobby",
        subscribers: [t.users.hamlet.id],
        can_move_messages_out_of_channel_group: await groupId(t, "role:members"),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const lobbyMsg = await sendToChannel(t, "hamlet", "Lobby", "leaving", "x");
      assert.equal((await move("hamlet", lobbyMsg, { stream_id: denmark })).status, 200);
      assert.equal((await move("iago", id, { stream_id: denmark })).status, 200);

      await setRealmGroup(t, "can_move_messages_between_channels_group_id", "role:members");
      const hidden = await createChannel(t, "Hidden", ["iago"], { invite_only: true });
      const next = await sendToChannel(t, "hamlet", "Verona", "perm-channel", "y");
      assertError(await move("hamlet", next, { stream_id: hidden }), "Invalid channel ID");
      assertError(await move("hamlet", next, { stream_id: 987654 }), "Invalid channel ID");
      const announce = await t.as("iago").post("/channels/create", {
        name: "Announcements",
        subscribers: [t.users.hamlet.id],
        can_send_message_group: await groupId(t, "role:administrators"),
      });
      assertError(await move("hamlet", next, { stream_id: announce.body.id }), "You do not have permission to post in this channel.");
      assert.equal((await get(next)).message.stream_id, verona);
    });

    it("keeps guests from moving messages between channels", async () => {
      await subscribe(t, denmark, ["polonius"]);
      const id = await sendToChannel(t, "polonius", "Denmark", "guest", "x");
      assertError(await move("polonius", id, { stream_id: verona }), "You don't have permission to move this message");
    });

    it("limits channel moves in time for non-moderators", async () => {
      await setRealm(t, { move_messages_between_streams_limit_seconds: 100 });
      const id = await sendToChannel(t, "hamlet", "Verona", "slow", "x");
      t.clock.seconds += 121;
      assertError(await move("hamlet", id, { stream_id: denmark }), "The time limit for editing this message's channel has passed");
      assert.equal((await move("shiva", id, { stream_id: denmark })).status, 200);
    });

    it("applies the destination's topic rules", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "rules", "x");
      const strict = await t.as("iago").post("/channels/create", {
        name: "Strict",
        subscribers: [t.users.hamlet.id, t.users.iago.id],
        can_create_topic_group: await groupId(t, "role:administrators"),
      });
      assert.equal(strict.status, 200, JSON.stringify(strict.body));
      assertError(await move("hamlet", id, { stream_id: strict.body.id }), "You do not have permission to create new topics in this channel.");
      await sendToChannel(t, "iago", "Strict", "rules", "existing topic");
      assert.equal((await move("hamlet", id, { stream_id: strict.body.id })).status, 200);
      const named = await t.as("iago").post("/channels/create", {
        name: "Named",
        subscribers: [t.users.hamlet.id],
        topics_policy: "disable_empty_topic",
      });
      assert.equal(named.status, 200, JSON.stringify(named.body));
      const other = await sendToChannel(t, "hamlet", "Verona", "rules2", "x");
      assertError(await move("hamlet", other, { stream_id: named.body.id, topic: "" }), "Sending messages to the general chat is not allowed in this channel.");
    });
  });
}
