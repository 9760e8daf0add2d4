/**
 * POST /register's parameters as clients up to feature level 496 send them (issue 15): every
 * client capability accepted and honoured, unknown ones ignored, idle_queue_timeout (FL 481) and
 * include_subscribers=partial (FL 412), and which sections each event type fetches (Zulip's
 * fetch_initial_state_data: muted_topics, unread_msgs, starred_messages, realm_filters).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CLIENT_CAPABILITIES } from "../../src/events/capabilities.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { createChannel, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`register parameters [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["hamlet", "othello", "iago"]);
    });
    after(() => t.close());

    const register = (params: Record<string, unknown>, who: UserName = "hamlet") => t.as(who).post("/register", params);
    const poll = async (queueId: string, who: UserName = "hamlet") =>
      (await t.as(who).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events as Array<Record<string, unknown>>;

    it("accepts every capability Zulip defines up to FL 496, and the mobile app's exact set", async () => {
      const all = Object.fromEntries(Object.keys(CLIENT_CAPABILITIES).map((name) => [name, true]));
      assert.equal((await register({ client_capabilities: all })).status, 200);
      const mobile = {
        notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true,
        user_settings_object: true, include_deactivated_groups: true, empty_topic_name: true, individual_emoji_changes: true,
      };
      const res = await register({ client_capabilities: mobile, apply_markdown: true, client_gravatar: false, slim_presence: true, idle_queue_timeout: '"mobile"' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });

    it("ignores capabilities it does not know, whatever their value, and refuses a known one that is not a boolean", async () => {
      const res = await register({ client_capabilities: { capability_of_level_9999: true, another_one: "x", bulk_message_deletion: true } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.ignored_parameters_unsupported, undefined);
      const bad = await register({ client_capabilities: { individual_emoji_changes: "yes" } });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, "REQUEST_VARIABLE_INVALID");
      assert.equal(bad.body.msg, 'client_capabilities["individual_emoji_changes"] is not a boolean');
    });

    it("keeps a queue as long as idle_queue_timeout asks: mobile is 12 hours, at most 7 days, 10 minutes by default", async () => {
      const cases: Array<[unknown, number]> = [[undefined, 600], ['"mobile"', 43200], [1200, 1200], [10 ** 9, 604800]];
      for (const [value, seconds] of cases) {
        const res = await register(value === undefined ? {} : { idle_queue_timeout: value });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.idle_queue_timeout_secs, seconds);
        t.clock.seconds += seconds;
        assert.ok(!t.deps.queues.collectIdle(t.clock.now()).includes(res.body.queue_id), `kept for ${seconds} s`);
        t.clock.seconds += 1;
        assert.ok(t.deps.queues.collectIdle(t.clock.now()).includes(res.body.queue_id), `collected after ${seconds} s`);
      }
      for (const value of [0, -5, '"forever"', "[]"]) {
        const res = await register({ idle_queue_timeout: value });
        assert.equal(res.status, 400, String(value));
        assert.equal(res.body.code, "REQUEST_VARIABLE_INVALID");
      }
      // Sent as JSON, as Zulip reads it: the bare word is not.
      assert.equal((await register({ idle_queue_timeout: "mobile" })).body.code, "INVALID_JSON");
    });

    it("lists subscribers for include_subscribers=partial, which lets the server send whole lists", async () => {
      const res = await register({ include_subscribers: "partial", fetch_event_types: ["subscription"] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const sub = res.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === verona);
      assert.deepEqual([...sub.subscribers].sort(), [t.users.hamlet.id, t.users.othello.id, t.users.iago.id].sort());
    });

    it("limits presence to presence_history_limit_days, 14 days by default", async () => {
      assert.equal((await t.as("othello").post("/users/me/presence", { status: "active" })).status, 200);
      t.clock.seconds += 3 * 86400;
      assert.equal((await t.as("iago").post("/users/me/presence", { status: "active" })).status, 200);
      const seen = async (params: Record<string, unknown>) =>
        Object.keys((await register({ fetch_event_types: ["presence"], slim_presence: true, ...params })).body.presences).map(Number).sort();
      assert.deepEqual(await seen({}), [t.users.iago.id, t.users.othello.id].sort());
      assert.deepEqual(await seen({ presence_history_limit_days: 1 }), [t.users.iago.id]);
      assert.equal((await register({ presence_history_limit_days: -1 })).status, 400);
    });

    it("sends one delete_message event per message to clients without bulk_message_deletion", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "gone", "soon deleted");
      const bulk = await register({ event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true } });
      const legacy = await register({ event_types: ["delete_message"] });
      assert.equal((await t.as("iago").delete(`/messages/${id}`)).status, 200);
      const [modern] = await poll(bulk.body.queue_id);
      assert.deepEqual(modern.message_ids, [id]);
      assert.equal(modern.message_id, undefined);
      const [old] = await poll(legacy.body.queue_id);
      assert.equal(old.message_id, id);
      assert.equal(old.message_ids, undefined);
      assert.equal(old.stream_id, verona);
    });

    it("gives URL-template linkifiers only to clients with linkifier_url_template; realm_filters is always empty", async () => {
      const created = await t.as("iago").post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{id}" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const withIt = await register({ event_types: ["realm_linkifiers"], client_capabilities: { linkifier_url_template: true } });
      const without = await register({ event_types: ["realm_linkifiers", "realm_filters"] });
      assert.equal(withIt.body.realm_linkifiers.length, 1);
      assert.deepEqual(without.body.realm_linkifiers, []);
      assert.deepEqual(without.body.realm_filters, []);
      await t.as("iago").delete(`/realm/filters/${created.body.id}`);
      assert.deepEqual((await poll(withIt.body.queue_id)).map((e) => e.type), ["realm_linkifiers"]);
      assert.deepEqual(await poll(without.body.queue_id), []);
    });

    it("returns muted_topics exactly when asked for without user_topic (or for everything)", async () => {
      const muted = await t.as("hamlet").post("/user_topics", { stream_id: verona, topic: "noise", visibility_policy: 1 });
      assert.equal(muted.status, 200, JSON.stringify(muted.body));
      const legacy = await register({ fetch_event_types: ["muted_topics"] });
      assert.deepEqual(
        legacy.body.muted_topics.map((m: unknown[]) => m.slice(0, 2)),
        [["Verona", "noise"]],
      );
      assert.equal(typeof legacy.body.muted_topics[0][2], "number");
      const both = await register({ fetch_event_types: ["muted_topics", "user_topic"] });
      assert.equal(both.body.muted_topics, undefined);
      // Only the muted one: hamlet also follows the topics he started (Zulip's default policy).
      assert.equal(both.body.user_topics.filter((u: { visibility_policy: number }) => u.visibility_policy === 1).length, 1);
      assert.ok(Array.isArray((await register({})).body.muted_topics));
    });

    it("fetches unread_msgs with message and update_message_flags together, starred_messages on its own", async () => {
      const flagsOnly = await register({ fetch_event_types: ["update_message_flags"] });
      assert.equal(flagsOnly.body.unread_msgs, undefined);
      const both = await register({ fetch_event_types: ["message", "update_message_flags"] });
      assert.equal(typeof both.body.unread_msgs.count, "number");
      assert.equal(both.body.starred_messages, undefined);
      assert.deepEqual((await register({ fetch_event_types: ["starred_messages"] })).body.starred_messages, []);
    });
  });
}
