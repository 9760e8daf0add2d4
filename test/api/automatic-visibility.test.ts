/**
 * Topics followed or unmuted automatically on send (FL 214, 218, 235), on every store: the
 * sender's automatically_follow_topics_policy (1 participation, 2 send, 3 initiation, 4 never),
 * automatically_unmute_topics_in_muted_streams_policy in muted channels, and
 * automatically_follow_topics_where_mentioned; POST /messages answers
 * automatic_new_visibility_policy only when the sender's topic changed, and user_topic events say so.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { createChannel, muteChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

const FOLLOWED = 3;
const UNMUTED = 2;

for (const kind of STORE_KINDS) {
  describe(`automatic topic visibility on send [${kind}]`, () => {
    let t: TestRealm;
    let channelId: number;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      channelId = await createChannel(t, "Elsinore", ["hamlet", "othello", "cordelia", "bot"]);
    });
    afterEach(() => t.close());

    const send = async (who: UserName, topic: string, content = "Words, words, words.") => {
      const res = await t.as(who).post("/messages", { type: "stream", to: "Elsinore", topic, content });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const settings = async (who: UserName, values: Record<string, unknown>) => {
      const res = await t.as(who).patch("/settings", values);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const topicEvents = (who: UserName) => eventsOf(t, "user_topic").filter((e) => e.userIds.includes(t.users[who].id)).map((e) => [e.event.topic_name, e.event.visibility_policy]);

    it("follows a topic the sender starts (Zulip's default), and says so only then", async () => {
      t.published.length = 0;
      const first = await send("hamlet", "ghost");
      assert.equal(first.automatic_new_visibility_policy, FOLLOWED);
      assert.deepEqual(topicEvents("hamlet"), [["ghost", FOLLOWED]]);
      assert.equal(eventsOf(t, "user_topic")[0].event.stream_id, channelId);
      t.published.length = 0;
      const second = await send("hamlet", "ghost");
      assert.equal("automatic_new_visibility_policy" in second, false);
      // Replying to a topic someone else started changes nothing under "initiation".
      assert.equal("automatic_new_visibility_policy" in (await send("othello", "ghost")), false);
      assert.deepEqual(topicEvents("othello"), []);
    });

    it("follows on any send under 'send' and 'participation', never under 'never'", async () => {
      await send("hamlet", "play");
      await settings("othello", { automatically_follow_topics_policy: 2 });
      assert.equal((await send("othello", "play")).automatic_new_visibility_policy, FOLLOWED);
      await settings("cordelia", { automatically_follow_topics_policy: 1 });
      assert.equal((await send("cordelia", "play")).automatic_new_visibility_policy, FOLLOWED);
      await settings("hamlet", { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 4 });
      t.published.length = 0;
      assert.equal("automatic_new_visibility_policy" in (await send("hamlet", "new topic")), false);
      assert.deepEqual(topicEvents("hamlet"), []);
    });

    it("unmutes in a muted channel, and never lowers a followed topic to unmuted", async () => {
      await muteChannel(t, channelId, "cordelia");
      await settings("cordelia", { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 2 });
      assert.equal((await send("cordelia", "madness")).automatic_new_visibility_policy, UNMUTED);
      const followed = await t.as("cordelia").post("/user_topics", { stream_id: channelId, topic: "flowers", visibility_policy: FOLLOWED });
      assert.equal(followed.status, 200, JSON.stringify(followed.body));
      t.published.length = 0;
      assert.equal("automatic_new_visibility_policy" in (await send("cordelia", "flowers")), false);
      assert.deepEqual(topicEvents("cordelia"), []);
      // In a channel that is not muted, the unmute policy does nothing.
      await settings("othello", { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 2 });
      assert.equal("automatic_new_visibility_policy" in (await send("othello", "madness")), false);
    });

    it("makes a muted topic followed when the follow policy acts", async () => {
      await send("hamlet", "graves");
      const muted = await t.as("othello").post("/user_topics", { stream_id: channelId, topic: "graves", visibility_policy: 1 });
      assert.equal(muted.status, 200);
      await settings("othello", { automatically_follow_topics_policy: 2 });
      assert.equal((await send("othello", "graves")).automatic_new_visibility_policy, FOLLOWED);
    });

    it("follows the topic for users mentioned by name who asked to, not for silent mentions or bots' sends", async () => {
      await settings("cordelia", { automatically_follow_topics_where_mentioned: false });
      t.published.length = 0;
      await send("hamlet", "court", "@**Othello, the Moor of Venice** and @**Cordelia, Lear's daughter**, come.");
      assert.deepEqual(topicEvents("othello"), [["court", FOLLOWED]]);
      assert.deepEqual(topicEvents("cordelia"), []);
      t.published.length = 0;
      await send("hamlet", "hall", "@_**Othello, the Moor of Venice** was here.");
      assert.deepEqual(topicEvents("othello"), []);
      t.published.length = 0;
      const fromBot = await send("bot", "bot news");
      assert.equal("automatic_new_visibility_policy" in fromBot, false);
      assert.deepEqual(topicEvents("bot"), []);
    });

    it("changes nothing when the send is refused", async () => {
      t.published.length = 0;
      const res = await t.as("hamlet").post("/messages", { type: "stream", to: "Elsinore", topic: "x".repeat(70), content: "" });
      assert.equal(res.status, 400);
      assert.deepEqual(eventsOf(t, "user_topic"), []);
    });
  });
}
