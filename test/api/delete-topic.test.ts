/**
 * Deleting a topic (Zulip's delete-topic; batches FL 147, `complete` FL 211, first_message_id
 * events FL 256), on every store: batches of the newest 100, each with its own delete_message
 * event, `complete: false` when the time budget runs out (the clock is advanced by the test, not
 * waited for), visibility policies cleared, and Zulip's permission and access checks.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { DELETE_TOPIC_BATCH_SIZE } from "../../src/actions/messages/delete-topic.js";
import { getChannelById } from "../../src/store/channels.js";
import { readTx, transaction } from "../../src/store/db.js";
import { bulkInsertChannelMessages } from "../../src/store/bulk-seed.js";
import { archiveChannel, createChannel, sendToChannel, subscribe } from "../helpers/conversations.js";
import { eventsOfType } from "../helpers/edits.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`delete a topic [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
    });
    afterEach(() => t.close());

    const deleteTopic = (who: UserName, channelId: number, topic: string) => t.as(who).post(`/streams/${channelId}/delete_topic`, { topic_name: topic });
    const topicIds = async (channelId: number, topic: string): Promise<number[]> => {
      const channel = await getChannelById(readTx(t.deps.store), t.realmId, channelId);
      const rows = await readTx(t.deps.store).db.selectFrom("messages").select("id").where("recipient_id", "=", channel!.recipient_id!).where("subject", "=", topic).orderBy("id").execute();
      return rows.map((r) => Number(r.id));
    };
    /** `count` messages from othello in the topic, straight into the store. */
    const seed = async (channelId: number, topic: string, count: number) => {
      const channel = await getChannelById(readTx(t.deps.store), t.realmId, channelId);
      const messages = Array.from({ length: count }, (_, i) => ({ senderId: t.users.othello.id, topic, content: `m${i}`, dateSent: t.clock.now() }));
      await transaction(t.deps.store, (tx) => bulkInsertChannelMessages(tx, t.realmId, channel!.recipient_id!, messages));
      return topicIds(channelId, topic);
    };

    it("deletes every message of the topic in batches of the newest 100, one event each, and refreshes first_message_id", async () => {
      const first = await sendToChannel(t, "hamlet", "Verona", "doomed", "the channel's first message");
      const seeded = (await seed(verona, "doomed", 2 * DELETE_TOPIC_BATCH_SIZE + 49)).filter((id) => id !== first);
      const other = await sendToChannel(t, "hamlet", "Verona", "kept");
      // Topics match without regard to case, as everywhere in Zulip.
      const shouting = await sendToChannel(t, "hamlet", "Verona", "DOOMED");
      const doomed = [first, ...seeded, shouting];
      const from = t.published.length;
      const res = await deleteTopic("iago", verona, "doomed");
      assert.deepEqual(res.body, { result: "success", msg: "", complete: true });
      assert.deepEqual(await topicIds(verona, "doomed"), []);
      assert.deepEqual(await topicIds(verona, "kept"), [other]);

      const events = eventsOfType(t, "delete_message", from);
      const newestFirst = [...doomed].reverse();
      const batches = [newestFirst.slice(0, 100), newestFirst.slice(100, 200), newestFirst.slice(200)];
      assert.deepEqual(events.map((e) => (e.event.message_ids as number[]).length), [100, 100, 51]);
      assert.deepEqual(events.map((e) => e.event.message_ids), batches.map((b) => [...b].sort((x, y) => x - y)));
      for (const e of events) {
        assert.equal(e.event.message_type, "stream");
        assert.equal(e.event.stream_id, verona);
        assert.deepEqual(e.userIds, [t.users.iago.id, t.users.hamlet.id, t.users.othello.id].sort((a, b) => a - b));
      }
      // The channel's oldest message went with the last batch (FL 256).
      const updates = eventsOfType(t, "stream", from).filter((e) => e.event.property === "first_message_id");
      assert.deepEqual(updates.at(-1)!.event.value, other);
      assert.equal((await t.as("hamlet").get(`/streams/${verona}`)).body.stream.first_message_id, other);
    });

    it("answers complete: false when the time budget runs out, and finishes when called again", async () => {
      const seeded = await seed(verona, "big", 3 * DELETE_TOPIC_BATCH_SIZE);
      const realNow = t.clock.now.bind(t.clock);
      // Each look at the clock takes 30 s: one batch fits in the 50-second budget, the second does not start.
      t.clock.now = () => (t.clock.seconds += 30);
      const partial = await deleteTopic("iago", verona, "big");
      t.clock.now = realNow;
      assert.deepEqual(partial.body, { result: "success", msg: "", complete: false });
      assert.deepEqual(await topicIds(verona, "big"), seeded.slice(0, 2 * DELETE_TOPIC_BATCH_SIZE), "the newest batch went first");
      assert.deepEqual((await deleteTopic("iago", verona, "big")).body.complete, true);
      assert.deepEqual(await topicIds(verona, "big"), []);
    });

    it("clears the visibility policies users gave the topic, with user_topic events", async () => {
      await sendToChannel(t, "othello", "Verona", "gossip");
      assert.equal((await t.as("hamlet").post("/user_topics", { stream_id: verona, topic: "gossip", visibility_policy: 3 })).status, 200);
      assert.equal((await t.as("othello").post("/user_topics", { stream_id: verona, topic: "Gossip", visibility_policy: 1 })).status, 200);
      const from = t.published.length;
      assert.equal((await deleteTopic("desdemona", verona, "gossip")).status, 200);
      const cleared = eventsOfType(t, "user_topic", from);
      assert.deepEqual(cleared.map((e) => [e.userIds, e.event.visibility_policy, e.event.stream_id]), [
        [[t.users.hamlet.id], 0, verona],
        [[t.users.othello.id], 0, verona],
      ]);
      assert.deepEqual((await t.as("hamlet").post("/register", { fetch_event_types: ["user_topic"] })).body.user_topics, []);
    });

    it("in a channel with protected history, deletes only what the administrator received and keeps others' policies", async () => {
      const secret = await createChannel(t, "secret", ["othello", "hamlet"], { invite_only: true, history_public_to_subscribers: false });
      const before = await sendToChannel(t, "othello", "secret", "plans");
      assert.equal((await t.as("othello").post("/user_topics", { stream_id: secret, topic: "plans", visibility_policy: 3 })).status, 200);
      // An administrator not subscribed cannot read it at all.
      assertError(await deleteTopic("iago", secret, "plans"), "Invalid channel ID");
      await subscribe(t, secret, ["iago"]);
      const after = await sendToChannel(t, "othello", "secret", "plans");
      const from = t.published.length;
      assert.deepEqual((await deleteTopic("iago", secret, "plans")).body.complete, true);
      assert.deepEqual(await topicIds(secret, "plans"), [before]);
      assert.deepEqual(eventsOfType(t, "delete_message", from).map((e) => e.event.message_ids), [[after]]);
      assert.deepEqual(eventsOfType(t, "user_topic", from), [], "othello still has a message of the topic");
    });

    it("refuses non-administrators, archived and unknown channels; a topic with no messages is already gone", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "safe");
      for (const who of ["shiva", "hamlet", "polonius", "bot"] as const) {
        assertError(await deleteTopic(who, verona, "safe"), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      }
      assertError(await deleteTopic("iago", 999_999, "safe"), "Invalid channel ID");
      assertError(await t.as("iago").post(`/streams/${verona}/delete_topic`), "Missing 'topic_name' argument", "REQUEST_VARIABLE_MISSING");
      assert.deepEqual((await deleteTopic("iago", verona, "no such topic")).body, { result: "success", msg: "", complete: true });
      assert.deepEqual(await topicIds(verona, "safe"), [id]);
      const archived = await createChannel(t, "old", ["iago"]);
      await sendToChannel(t, "iago", "old", "t");
      await archiveChannel(t, archived);
      assertError(await deleteTopic("iago", archived, "t"), "Invalid channel ID");
      await checkPermissions(["desdemona", "iago"], (who) => deleteTopic(who, verona, "safe"));
    });

    it("reads the empty topic's display name as the empty topic", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "");
      assert.equal((await deleteTopic("iago", verona, "general chat")).status, 200);
      assert.deepEqual(await topicIds(verona, ""), []);
      assert.ok(!(await topicIds(verona, "")).includes(id));
    });
  });
}
