/** Moving messages between topics of a channel, and resolving topics (PATCH /messages/{id}), on every store. */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { getTopicPolicies } from "../../src/store/edits.js";
import { createChannel, sendToChannel } from "../helpers/conversations.js";
import { eventsOfType, groupId, noticesSince, resetMoveSettings, setRealm, setRealmGroup } from "../helpers/edits.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`move messages between topics and resolve topics [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    let hamlet: string;
    const url = (channelId: number, channel: string, topic: string, id: number) =>
      `https://zulip.testserver.local:9991/#narrow/channel/${channelId}-${channel}/topic/${topic}/near/${id}`;
    const get = async (id: number, as: UserName = "hamlet") => (await t.as(as).get(`/messages/${id}`, { allow_empty_topic_name: true })).body;
    const move = (as: UserName, id: number, params: Record<string, unknown>) => t.as(as).patch(`/messages/${id}`, params);

    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "shiva", "hamlet", "othello", "cordelia"]);
      hamlet = `@_**King Hamlet|${t.users.hamlet.id}**`;
    });
    after(() => t.close());
    beforeEach(() => resetMoveSettings(t));

    it("moves one message to another topic, records it, and notifies the new topic", async () => {
      const stay = await sendToChannel(t, "hamlet", "Verona", "old", "one");
      const id = await sendToChannel(t, "hamlet", "Verona", "old", "two");
      t.clock.seconds += 10;
      const from = t.published.length;
      const res = await move("hamlet", id, { topic: "new" });
      assert.deepEqual(res.body, { result: "success", msg: "", detached_uploads: [] });
      const moved = (await get(id)).message;
      assert.equal(moved.subject, "new");
      assert.equal(moved.last_moved_timestamp, t.clock.seconds);
      assert.equal(moved.last_edit_timestamp, undefined);
      assert.deepEqual(moved.edit_history, [{ user_id: t.users.hamlet.id, timestamp: t.clock.seconds, prev_topic: "old", topic: "new" }]);
      assert.equal((await get(stay)).message.subject, "old");

      const events = eventsOfType(t, "update_message", from);
      const { flags, ...event } = events.find((e) => e.userIds.includes(t.users.othello.id))!.event;
      assert.deepEqual(flags, []);
      assert.deepEqual(event, {
        type: "update_message",
        user_id: t.users.hamlet.id,
        edit_timestamp: t.clock.seconds,
        message_id: id,
        message_ids: [id],
        rendering_only: false,
        stream_name: "Verona",
        stream_id: verona,
        propagate_mode: "change_one",
        orig_subject: "old",
        subject: "new",
        topic_links: [],
      });
      assert.deepEqual(noticesSince(t, from), [
        {
          id: noticesSince(t, from)[0].id,
          streamId: verona,
          topic: "new",
          content: `[A message](${url(verona, "Verona", "new", id)}) was moved here from #**Verona>old** by ${hamlet}.`,
        },
      ]);
      assert.ok((await get(noticesSince(t, from)[0].id)).message.flags.includes("read"), "the mover's copy of the notice is read");
    });

    it("moves later messages with change_later and tells both topics", async () => {
      const first = await sendToChannel(t, "othello", "Verona", "later", "a");
      const second = await sendToChannel(t, "othello", "Verona", "later", "b");
      const third = await sendToChannel(t, "cordelia", "Verona", "later", "c");
      const from = t.published.length;
      const res = await move("hamlet", second, { topic: "later2", propagate_mode: "change_later", send_notification_to_old_thread: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await get(first)).message.subject, "later");
      assert.equal((await get(second)).message.subject, "later2");
      assert.equal((await get(third)).message.subject, "later2");
      assert.deepEqual(eventsOfType(t, "update_message", from)[0].event.message_ids, [second, third]);
      assert.deepEqual(
        noticesSince(t, from).map((n) => [n.topic, n.content]),
        [
          ["later2", `2 messages were moved here from #**Verona>later** by ${hamlet}.`],
          ["later", `2 messages were moved from this topic to #**Verona>later2** by ${hamlet}.`],
        ],
      );
    });

    it("moves a whole topic with change_all, matching topics case-insensitively", async () => {
      const a = await sendToChannel(t, "othello", "Verona", "Whole", "a");
      const b = await sendToChannel(t, "othello", "Verona", "whole", "b");
      const from = t.published.length;
      assert.equal((await move("hamlet", a, { topic: "entire", propagate_mode: "change_all", send_notification_to_old_thread: true })).status, 200);
      assert.equal((await get(b)).message.subject, "entire");
      assert.deepEqual((await get(b)).message.edit_history[0].prev_topic, "whole");
      assert.deepEqual(
        noticesSince(t, from).map((n) => [n.topic, n.content]),
        [
          ["entire", `This topic was moved here from #**Verona>Whole** by ${hamlet}.`],
          ["Whole", `This topic was moved to #**Verona>entire** by ${hamlet}.`],
        ],
      );
      const into = await sendToChannel(t, "othello", "Verona", "merge-from", "c");
      await sendToChannel(t, "othello", "Verona", "entire", "already here");
      const from2 = t.published.length;
      assert.equal((await move("hamlet", into, { topic: "entire", propagate_mode: "change_all", send_notification_to_new_thread: true })).status, 200);
      const [notice] = noticesSince(t, from2);
      assert.equal(notice.content, `[A message](${url(verona, "Verona", "entire", into)}) was moved here from #**Verona>merge-from** by ${hamlet}.`);
    });

    it("sends the new topic's links with the move", async () => {
      await transaction(t.deps.store, (tx) =>
        tx.db.insertInto("linkifiers").values({ realm_id: t.realmId, pattern: "#(?P<id>[0-9]+)", url_template: "https://trac.example.com/ticket/{id}" }).execute(),
      );
      const id = await sendToChannel(t, "hamlet", "Verona", "links", "x");
      const from = t.published.length;
      assert.equal((await move("hamlet", id, { topic: "ticket #123 see example.com/doc", send_notification_to_new_thread: false })).status, 200);
      assert.deepEqual(eventsOfType(t, "update_message", from)[0].event.topic_links, [
        { text: "#123", url: "https://trac.example.com/ticket/123" },
        { text: "example.com/doc", url: "https://example.com/doc" },
      ]);
      assert.deepEqual((await get(id)).message.topic_links, eventsOfType(t, "update_message", from)[0].event.topic_links);
    });

    it("sends no notices when asked not to", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "quiet", "x");
      const from = t.published.length;
      assert.equal((await move("hamlet", id, { topic: "quiet2", send_notification_to_new_thread: false })).status, 200);
      assert.deepEqual(noticesSince(t, from), []);
    });

    it("needs a topic-moving permission: organization-wide or for the channel", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "perm", "x");
      await setRealmGroup(t, "can_move_messages_between_topics_group_id", "role:moderators");
      assertError(await move("hamlet", id, { topic: "perm2" }), "You don't have permission to edit this message");
      assert.equal((await get(id)).message.subject, "perm");
      assert.equal((await move("shiva", id, { topic: "perm2" })).status, 200);
      assert.equal((await move("iago", id, { topic: "perm3" })).status, 200);
      const members = await groupId(t, "role:members");
      const res = await t.as("iago").post("/channels/create", {
        name: "Open topics",
        subscribers: [t.users.hamlet.id],
        can_move_messages_within_channel_group: members,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const there = await sendToChannel(t, "hamlet", "Open topics", "a", "x");
      assert.equal((await move("hamlet", there, { topic: "b" })).status, 200);
    });

    it("limits topic moves in time for non-moderators", async () => {
      await setRealm(t, { move_messages_within_stream_limit_seconds: 100 });
      const id = await sendToChannel(t, "hamlet", "Verona", "aging", "x");
      t.clock.seconds += 121;
      assertError(await move("hamlet", id, { topic: "aged" }), "The time limit for editing this message's topic has passed.");
      assert.equal((await move("shiva", id, { topic: "aged" })).status, 200);
    });

    it("refuses change_all over messages past the limit, saying what may be moved", async () => {
      await setRealm(t, { move_messages_within_stream_limit_seconds: 100 });
      await sendToChannel(t, "othello", "Verona", "partly", "old");
      t.clock.seconds += 500;
      const second = await sendToChannel(t, "othello", "Verona", "partly", "new 1");
      const third = await sendToChannel(t, "othello", "Verona", "partly", "new 2");
      const res = await move("othello", third, { topic: "partly2", propagate_mode: "change_all" });
      assertError(res, "You only have permission to move the 2/3 most recent messages in this topic.", "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED");
      assert.equal(res.body.first_message_id_allowed_to_move, second);
      assert.equal(res.body.total_messages_in_topic, 3);
      assert.equal(res.body.total_messages_allowed_to_move, 2);
      assert.equal((await get(third)).message.subject, "partly");
      assert.equal((await move("othello", second, { topic: "partly2", propagate_mode: "change_later" })).status, 200);
      assert.equal((await get(third)).message.subject, "partly2");
      assert.equal((await move("shiva", second, { topic: "partly3", propagate_mode: "change_all" })).status, 200);
    });

    it("resolves and unresolves a topic: a notice, no move timestamp, followers keep it unread", async () => {
      const a = await sendToChannel(t, "othello", "Verona", "bug", "broken");
      const b = await sendToChannel(t, "othello", "Verona", "bug", "still broken");
      // Othello started the topic, so follows it (FL 214); here he is no follower.
      assert.equal((await t.as("othello").post("/user_topics", { stream_id: verona, topic: "bug", visibility_policy: 0 })).status, 200);
      const follow = await t.as("cordelia").post("/user_topics", { stream_id: verona, topic: "bug", visibility_policy: 3 });
      assert.equal(follow.status, 200, JSON.stringify(follow.body));
      t.clock.seconds += 5;
      const from = t.published.length;
      assert.equal((await move("hamlet", b, { topic: "✔ bug", propagate_mode: "change_all" })).status, 200);
      for (const id of [a, b]) {
        const m = (await get(id)).message;
        assert.equal(m.subject, "✔ bug");
        assert.equal(m.last_moved_timestamp, undefined, "resolving is not a move");
        assert.deepEqual(m.edit_history, [{ user_id: t.users.hamlet.id, timestamp: t.clock.seconds, prev_topic: "bug", topic: "✔ bug" }]);
      }
      const notices = noticesSince(t, from);
      assert.deepEqual(notices.map((n) => [n.topic, n.content]), [["✔ bug", `${hamlet} has marked this topic as resolved.`]]);
      assert.ok((await get(notices[0].id, "othello")).message.flags.includes("read"));
      assert.ok(!(await get(notices[0].id, "cordelia")).message.flags.includes("read"), "followers see the notice unread");
      const event = eventsOfType(t, "update_message", from)[0].event;
      assert.equal(event.orig_subject, "bug");
      assert.equal(event.subject, "✔ bug");

      const from2 = t.published.length;
      assert.equal((await move("hamlet", a, { topic: "bug", propagate_mode: "change_all" })).status, 200);
      assert.deepEqual(noticesSince(t, from2).map((n) => [n.topic, n.content]), [["bug", `${hamlet} has marked this topic as unresolved.`]]);
      assert.equal((await get(a)).message.last_moved_timestamp, undefined);
    });

    it("needs can_resolve_topics_group to resolve, organization-wide or for the channel", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "fixme", "x");
      await setRealmGroup(t, "can_resolve_topics_group_id", "role:nobody");
      assertError(await move("hamlet", id, { topic: "✔ fixme" }), "You don't have permission to resolve topics in this channel.");
      assert.equal((await move("hamlet", id, { topic: "fixme later" })).status, 200, "renaming is still allowed");
      const res = await t.as("iago").post("/channels/create", {
        name: "Tracker",
        subscribers: [t.users.hamlet.id],
        can_resolve_topics_group: await groupId(t, "role:members"),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const there = await sendToChannel(t, "hamlet", "Tracker", "issue", "x");
      assert.equal((await move("hamlet", there, { topic: "✔ issue" })).status, 200);
      assertError(await move("hamlet", there, { topic: "✔ general chat" }), "General chat cannot be marked as resolved");
      assertError(await move("hamlet", there, { topic: "✔" }), "General chat cannot be marked as resolved");
    });

    it("carries mute and follow settings with a topic that moves whole", async () => {
      const policies = async (topic: string) => {
        const map = await getTopicPolicies(readTx(t.deps.store), verona, topic);
        return Object.fromEntries([...map].map(([id, policy]) => [id, policy]));
      };
      const setPolicy = async (user: UserName, topic: string, visibility_policy: number) =>
        assert.equal((await t.as(user).post("/user_topics", { stream_id: verona, topic, visibility_policy })).status, 200);
      const a = await sendToChannel(t, "othello", "Verona", "src", "a");
      await sendToChannel(t, "othello", "Verona", "src", "b");
      await setPolicy("cordelia", "src", 1);
      await setPolicy("iago", "src", 3);
      const from = t.published.length;
      assert.equal((await move("hamlet", a, { topic: "fresh", propagate_mode: "change_all" })).status, 200);
      assert.deepEqual(await policies("src"), {});
      // Othello started the topic, so follows it (automatically_follow_topics_policy, FL 214).
      assert.deepEqual(await policies("fresh"), { [t.users.cordelia.id]: 1, [t.users.iago.id]: 3, [t.users.othello.id]: 3 });
      const toCordelia = eventsOfType(t, "user_topic", from).filter((e) => e.userIds.includes(t.users.cordelia.id));
      assert.deepEqual(
        toCordelia.map((e) => [e.event.topic_name, e.event.visibility_policy]),
        [
          ["src", 0],
          ["fresh", 1],
        ],
      );
      // Into a topic that already has messages, the more visible policy wins.
      await sendToChannel(t, "othello", "Verona", "busy", "c");
      await setPolicy("othello", "busy", 1);
      assert.equal((await move("hamlet", a, { topic: "busy", propagate_mode: "change_all" })).status, 200);
      // Othello followed "fresh" (he started "src") and muted "busy": following wins.
      assert.deepEqual(await policies("busy"), { [t.users.iago.id]: 3, [t.users.othello.id]: 3 });
      // A partial move leaves the settings alone.
      const keep = await sendToChannel(t, "othello", "Verona", "busy", "d");
      assert.equal((await move("hamlet", keep, { topic: "elsewhere" })).status, 200);
      // Othello followed "fresh" (he started "src") and muted "busy": following wins.
      assert.deepEqual(await policies("busy"), { [t.users.iago.id]: 3, [t.users.othello.id]: 3 });
    });

    it("keeps topic search in step with moves", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "plain", "content here");
      assert.equal((await move("hamlet", id, { topic: "zebratopic", send_notification_to_new_thread: false })).status, 200);
      const found = await t.as("hamlet").get("/messages", {
        anchor: "newest",
        num_before: 5,
        num_after: 0,
        narrow: [{ operator: "search", operand: "zebratopic" }],
      });
      assert.deepEqual(found.body.messages.map((m: { id: number }) => m.id), [id]);
    });
  });
}
