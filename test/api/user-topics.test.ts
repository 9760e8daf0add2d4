/** Per-user topic visibility: POST /user_topics and the deprecated muted-topics PATCH (spec 4.4). */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { readTx } from "../../src/store/db.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { archiveChannel, createChannel } from "../helpers/conversations.js";

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;
const INHERIT = 0;

for (const kind of STORE_KINDS) {
  describe(`user topics [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
    });
    after(() => t.close());
    beforeEach(() => {
      t.published.length = 0;
    });

    const setPolicy = (user: UserName, params: Record<string, unknown>) => t.as(user).post("/user_topics", params);
    const muteTopics = (user: UserName, params: Record<string, unknown>) => t.as(user).patch("/users/me/subscriptions/muted_topics", params);
    const rowsOf = (user: UserName) =>
      readTx(t.deps.store)
        .db.selectFrom("user_topics")
        .select(["channel_id", "topic_name", "visibility_policy", "last_updated"])
        .where("user_id", "=", t.users[user].id)
        .orderBy("id")
        .execute();
    const eventsOf = (type: string) => t.published.filter((e) => e.event.type === type);

    it("sets a policy and tells only that user, with the legacy muted_topics list too", async () => {
      t.clock.seconds = 1_577_836_800;
      const res = await setPolicy("hamlet", { stream_id: verona, topic: "Verona3", visibility_policy: MUTED });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { result: "success", msg: "" });
      assert.deepEqual(await rowsOf("hamlet"), [{ channel_id: verona, topic_name: "Verona3", visibility_policy: MUTED, last_updated: 1_577_836_800 }]);
      assert.deepEqual(
        t.published.map((e) => [e.event, e.userIds]),
        [
          [{ type: "muted_topics", muted_topics: [["Verona", "Verona3", 1_577_836_800]] }, [t.users.hamlet.id]],
          [{ type: "user_topic", stream_id: verona, topic_name: "Verona3", last_updated: 1_577_836_800, visibility_policy: MUTED }, [t.users.hamlet.id]],
        ],
      );
    });

    it("treats a repeated policy, in any case, as done, without a second row or event", async () => {
      const again = await setPolicy("hamlet", { stream_id: verona, topic: "VERONA3", visibility_policy: MUTED });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal((await rowsOf("hamlet")).length, 1);
      assert.deepEqual(t.published, []);
    });

    it("changes a policy, then clears it back to inherit; clearing nothing is fine", async () => {
      t.clock.seconds += 60;
      assert.equal((await setPolicy("hamlet", { stream_id: verona, topic: "verona3", visibility_policy: FOLLOWED })).status, 200);
      const [row] = await rowsOf("hamlet");
      assert.deepEqual([row.topic_name, row.visibility_policy, row.last_updated], ["Verona3", FOLLOWED, t.clock.seconds]);
      assert.deepEqual(eventsOf("muted_topics")[0].event.muted_topics, []);
      assert.equal(eventsOf("user_topic")[0].event.visibility_policy, FOLLOWED);
      t.published.length = 0;
      assert.equal((await setPolicy("hamlet", { stream_id: verona, topic: "Verona3", visibility_policy: INHERIT })).status, 200);
      assert.deepEqual(await rowsOf("hamlet"), []);
      assert.deepEqual(eventsOf("user_topic")[0].event, {
        type: "user_topic",
        stream_id: verona,
        topic_name: "Verona3",
        last_updated: t.clock.seconds,
        visibility_policy: INHERIT,
      });
      t.published.length = 0;
      assert.equal((await setPolicy("hamlet", { stream_id: verona, topic: "Verona3", visibility_policy: INHERIT })).status, 200);
      assert.deepEqual(t.published, []);
    });

    it("takes the empty topic's display name as the empty topic", async () => {
      assert.equal((await setPolicy("othello", { stream_id: verona, topic: "general chat", visibility_policy: UNMUTED })).status, 200);
      assert.equal(eventsOf("user_topic")[0].event.topic_name, "");
      assert.equal((await setPolicy("othello", { stream_id: verona, topic: "", visibility_policy: UNMUTED })).status, 200);
      assert.deepEqual((await rowsOf("othello")).map((r) => r.topic_name), [""]);
      assert.equal((await setPolicy("othello", { stream_id: verona, topic: "", visibility_policy: INHERIT })).status, 200);
      assert.deepEqual(await rowsOf("othello"), []);
    });

    it("needs content access to a live channel to set a policy, but clears one on any channel", async () => {
      const secret = await createChannel(t, "Secret", ["iago"], { invite_only: true });
      const attic = await createChannel(t, "Attic", ["cordelia"]);
      assert.equal((await setPolicy("cordelia", { stream_id: attic, topic: "dust", visibility_policy: MUTED })).status, 200);
      await archiveChannel(t, attic);
      const invalid = { result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" };
      for (const [user, channelId] of [["hamlet", secret], ["hamlet", 999999], ["cordelia", attic], ["polonius", verona]] as const) {
        const res = await setPolicy(user, { stream_id: channelId, topic: "x", visibility_policy: MUTED });
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, invalid);
      }
      assert.deepEqual((await setPolicy("hamlet", { stream_id: 999999, topic: "x", visibility_policy: INHERIT })).body, invalid);
      assert.equal((await setPolicy("cordelia", { stream_id: attic, topic: "DUST", visibility_policy: INHERIT })).status, 200);
      assert.deepEqual(await rowsOf("cordelia"), []);
      // An unsubscribed member may mute topics of a public channel.
      assert.equal((await setPolicy("cordelia", { stream_id: verona, topic: "noise", visibility_policy: MUTED })).status, 200);
    });

    it("validates topic length and the policy value", async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ stream_id: verona, topic: "a".repeat(61), visibility_policy: MUTED }, "topic is too long (limit: 60 characters)", "REQUEST_VARIABLE_INVALID"],
        [{ stream_id: verona, topic: "x", visibility_policy: 4 }, "Invalid visibility_policy", "REQUEST_VARIABLE_INVALID"],
        [{ stream_id: verona, topic: "x" }, "Missing 'visibility_policy' argument", "REQUEST_VARIABLE_MISSING"],
        [{ topic: "x", visibility_policy: MUTED }, "Missing 'stream_id' argument", "REQUEST_VARIABLE_MISSING"],
      ];
      for (const [params, msg, code] of cases) {
        const res = await setPolicy("hamlet", params);
        assert.equal(res.status, 400);
        assert.deepEqual([res.body.msg, res.body.code], [msg, code]);
      }
      assert.equal((await setPolicy("hamlet", { stream_id: verona, topic: "a".repeat(60), visibility_policy: MUTED })).status, 200);
      assert.equal((await setPolicy("hamlet", { stream_id: verona, topic: "a".repeat(60), visibility_policy: INHERIT })).status, 200);
    });

    it("settles concurrent requests for the same topic without a second row", async () => {
      const results = await Promise.all([1, 2, 3].map(() => setPolicy("othello", { stream_id: verona, topic: "race", visibility_policy: FOLLOWED })));
      assert.deepEqual(results.map((r) => r.status), [200, 200, 200]);
      assert.deepEqual((await rowsOf("othello")).map((r) => r.topic_name), ["race"]);
      assert.equal(eventsOf("user_topic").length, 1);
    });

    describe("deprecated muted_topics PATCH", () => {
      it("mutes by channel name or id, idempotently, and unmutes case-insensitively", async () => {
        t.clock.seconds = 1_600_000_000;
        for (const channel of [{ stream: "Verona" }, { stream_id: verona }]) {
          const res = await muteTopics("iago", { ...channel, topic: "Verona3", op: "add" });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          assert.deepEqual(await rowsOf("iago"), [{ channel_id: verona, topic_name: "Verona3", visibility_policy: MUTED, last_updated: 1_600_000_000 }]);
        }
        assert.equal(eventsOf("user_topic").length, 1);
        assert.deepEqual(eventsOf("muted_topics")[0].event.muted_topics, [["Verona", "Verona3", 1_600_000_000]]);
        for (const channel of [{ stream: "verona" }, { stream_id: verona }]) {
          const res = await muteTopics("iago", { ...channel, topic: "vERONA3", op: "remove" });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          assert.deepEqual(await rowsOf("iago"), []);
        }
        assert.deepEqual(eventsOf("user_topic").map((e) => e.event.visibility_policy), [MUTED, INHERIT]);
      });

      it("clears any policy on remove", async () => {
        assert.equal((await setPolicy("iago", { stream_id: verona, topic: "followed", visibility_policy: FOLLOWED })).status, 200);
        assert.equal((await muteTopics("iago", { stream_id: verona, topic: "followed", op: "remove" })).status, 200);
        assert.deepEqual(await rowsOf("iago"), []);
      });

      it("refuses bad channel references with Zulip's messages", async () => {
        const cases: Array<[Record<string, unknown>, string]> = [
          [{ stream_id: 999999, topic: "Verona3", op: "add" }, "Invalid channel ID"],
          [{ stream: "BOGUS", topic: "Verona3", op: "add" }, "Invalid channel name 'BOGUS'"],
          [{ stream: "BOGUS", topic: "Verona3", op: "remove" }, "Topic is not muted"],
          [{ stream_id: 999999, topic: "Verona3", op: "remove" }, "Topic is not muted"],
          [{ topic: "Verona3", op: "add" }, "Missing 'stream_id' argument"],
          [{ topic: "Verona3", op: "remove" }, "Missing 'stream_id' argument"],
          [{ stream: "Verona", stream_id: verona, topic: "Verona3", op: "add" }, "Unsupported parameter combination: stream_id, stream"],
          [{ stream_id: verona, topic: "a".repeat(61), op: "add" }, "topic is too long (limit: 60 characters)"],
          [{ stream_id: verona, topic: "Verona3", op: "toggle" }, "Invalid op"],
        ];
        for (const [params, msg] of cases) {
          const res = await muteTopics("hamlet", params);
          assert.equal(res.status, 400, JSON.stringify(params));
          assert.equal(res.body.msg, msg);
        }
        const both = await muteTopics("hamlet", { stream: "Verona", stream_id: verona, topic: "x", op: "add" });
        assert.deepEqual(both.body, {
          result: "error",
          msg: "Unsupported parameter combination: stream_id, stream",
          code: "BAD_REQUEST",
          parameters: "stream_id, stream",
        });
        const secret = (await muteTopics("hamlet", { stream: "Secret", topic: "x", op: "add" })).body;
        assert.equal(secret.msg, "Invalid channel name 'Secret'");
        assert.deepEqual(t.published, []);
      });
    });
  });
}
