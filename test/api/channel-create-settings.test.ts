/**
 * POST /channels/create (spec 4.3), the settings: web-public, default channel, folder, topics
 * policy, history, retention and every can_*_group value form.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CHANNEL_GROUP_SETTINGS } from "../../src/policy/channel-settings.js";
import { addFolder, addGroup, eventsOf, ids, setRealm, systemGroupId } from "../helpers/channels.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`POST /channels/create settings [${kind}]`, () => {
    let t: TestRealm;
    let n = 0;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    /** Creates a uniquely named channel; returns the response and, on success, the channel object. */
    const create = async (who: Parameters<TestRealm["as"]>[0], params: Record<string, unknown>) => {
      const res = await t.as(who).post("/channels/create", { name: `settings-${++n}`, subscribers: [], ...params });
      const stream = res.status === 200 ? (await t.as("desdemona").get(`/streams/${res.body.id}`)).body.stream : undefined;
      return { res, stream };
    };

    it("creates web-public channels only when the server, the realm and the caller allow it", async () => {
      assertError((await create("desdemona", { is_web_public: true })).res, "Web-public channels are not enabled.");
      await setRealm(t, { enable_spectator_access: true });
      assertError((await create("iago", { is_web_public: true })).res, "Insufficient permission");
      assertError((await create("desdemona", { is_web_public: true, invite_only: true })).res, "Invalid parameters");
      const from = t.published.length;
      const { res, stream } = await create("desdemona", { is_web_public: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(stream.is_web_public, true);
      const [created] = eventsOf(t, "stream", "create", from);
      assert.ok(created.userIds.includes(t.users.polonius.id), "guests see web-public channels");
      const closed = await createTestRealm(kind, { webPublicStreamsEnabled: false });
      try {
        await setRealm(closed, { enable_spectator_access: true });
        const off = await closed.as("desdemona").post("/channels/create", { name: "web", subscribers: [], is_web_public: true });
        assertError(off, "Web-public channels are not enabled.");
      } finally {
        await closed.close();
      }
    });

    it("makes default channels for administrators only, never private ones", async () => {
      assertError((await create("hamlet", { is_default_stream: true })).res, "Insufficient permission");
      assertError((await create("iago", { is_default_stream: true, invite_only: true })).res, "A default channel cannot be private.");
      const from = t.published.length;
      const { res } = await create("iago", { is_default_stream: true });
      assert.equal(res.status, 200);
      const [event] = eventsOf(t, "default_streams", undefined, from);
      assert.ok((event.event.default_streams as number[]).includes(res.body.id));
      assert.ok(!event.userIds.includes(t.users.polonius.id));
      const listed = (await t.as("hamlet").get("/streams", { include_default: true })).body.streams;
      assert.equal(listed.find((s: { stream_id: number }) => s.stream_id === res.body.id).is_default, true);
    });

    it("puts the channel in an existing, unarchived folder", async () => {
      const folder = await addFolder(t, "Engineering");
      const archived = await addFolder(t, "Old", true);
      assertError((await create("hamlet", { folder_id: 99999 })).res, "Invalid channel folder ID");
      assertError((await create("hamlet", { folder_id: archived })).res, "Invalid channel folder ID");
      assert.equal((await create("hamlet", { folder_id: folder })).stream.folder_id, folder);
      assert.equal((await create("hamlet", {})).stream.folder_id, null);
    });

    it("sets topics_policy for those in can_set_topics_policy_group", async () => {
      assertError((await create("hamlet", { topics_policy: "bogus" })).res, "Invalid topics_policy", "REQUEST_VARIABLE_INVALID");
      assertError((await create("hamlet", { topics_policy: "disable_empty_topic" })).res, "Insufficient permission");
      assert.equal((await create("hamlet", { topics_policy: "inherit" })).stream.topics_policy, "inherit");
      assert.equal((await create("shiva", { topics_policy: "empty_topic_only" })).stream.topics_policy, "empty_topic_only");
      assert.equal((await create("shiva", { topics_policy: '"allow_empty_topic"' })).stream.topics_policy, "allow_empty_topic");
    });

    it("shares history on public channels and hides it on private ones unless asked", async () => {
      assert.equal((await create("hamlet", { history_public_to_subscribers: false })).stream.history_public_to_subscribers, true);
      assert.equal((await create("hamlet", { invite_only: true })).stream.history_public_to_subscribers, false);
      const shared = await create("hamlet", { invite_only: true, history_public_to_subscribers: true });
      assert.equal(shared.stream.history_public_to_subscribers, true);
      assertError((await create("hamlet", { history_public_to_subscribers: "yes" })).res, 'Argument "history_public_to_subscribers" is not valid JSON.', "INVALID_JSON");
    });

    it("sets message_retention_days for owners only", async () => {
      assertError((await create("iago", { message_retention_days: 10 })).res, "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assertError((await create("iago", { message_retention_days: "unlimited" })).res, "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assert.equal((await create("hamlet", { message_retention_days: "realm_default" })).stream.message_retention_days, null);
      assert.equal((await create("desdemona", { message_retention_days: 10 })).stream.message_retention_days, 10);
      assert.equal((await create("desdemona", { message_retention_days: "unlimited" })).stream.message_retention_days, -1);
      assert.equal((await create("desdemona", { message_retention_days: '"unlimited"' })).stream.message_retention_days, -1);
      assert.equal((await create("desdemona", { message_retention_days: "forever" })).stream.message_retention_days, -1);
      assertError((await create("desdemona", { message_retention_days: 0 })).res, "Bad value for 'message_retention_days': 0", "REQUEST_VARIABLE_INVALID");
      assertError((await create("desdemona", { message_retention_days: "bogus" })).res, "Bad value for 'message_retention_days': bogus", "REQUEST_VARIABLE_INVALID");
    });

    it("accepts every group setting as a group id or an anonymous group, canonicalised", async () => {
      const moderators = await systemGroupId(t, "role:moderators");
      const nobody = await systemGroupId(t, "role:nobody");
      const staff = await addGroup(t, "staff", ["othello"]);
      for (const { name } of CHANNEL_GROUP_SETTINGS) {
        assert.equal((await create("desdemona", { [name]: moderators })).stream[name], moderators, name);
        assert.equal((await create("desdemona", { [name]: staff })).stream[name], staff, name);
        assert.equal((await create("desdemona", { [name]: { direct_members: [], direct_subgroups: [moderators] } })).stream[name], moderators, name);
        assert.equal((await create("desdemona", { [name]: { direct_members: [], direct_subgroups: [] } })).stream[name], nobody, name);
        const anonymous = { direct_members: [t.users.cordelia.id], direct_subgroups: [moderators] };
        assert.deepEqual((await create("desdemona", { [name]: anonymous })).stream[name], anonymous, name);
        assertError((await create("desdemona", { [name]: 99999 })).res, "Invalid user group");
        const internet = await systemGroupId(t, "role:internet");
        const res = (await create("desdemona", { [name]: internet })).res;
        assert.equal(res.body.msg, `'${name}' setting cannot be set to 'role:internet' group.`);
      }
    });

    it("keeps guests out of the settings that do not allow role:everyone", async () => {
      const everyone = await systemGroupId(t, "role:everyone");
      for (const name of ["can_add_subscribers_group", "can_administer_channel_group", "can_subscribe_group"]) {
        assert.equal((await create("desdemona", { [name]: everyone })).res.body.msg, `'${name}' setting cannot be set to 'role:everyone' group.`);
      }
      for (const name of ["can_send_message_group", "can_remove_subscribers_group", "can_create_topic_group"]) {
        assert.equal((await create("desdemona", { [name]: everyone })).stream[name], everyone, name);
      }
      assertError((await create("desdemona", { can_send_message_group: { direct_members: [99999], direct_subgroups: [] } })).res, "Invalid user ID: 99999");
    });

    it("lets only can_set_delete_message_policy_group set the delete permissions", async () => {
      const members = await systemGroupId(t, "role:members");
      for (const name of ["can_delete_any_message_group", "can_delete_own_message_group"]) {
        assertError((await create("hamlet", { [name]: members })).res, "Insufficient permission");
        assert.equal((await create("hamlet", { [name]: await systemGroupId(t, "role:nobody") })).res.status, 200);
        assert.equal((await create("shiva", { [name]: members })).stream[name], members);
      }
    });

    it("requires can_create_topic_group to be role:everyone on private channels with protected history", async () => {
      const everyone = await systemGroupId(t, "role:everyone");
      const moderators = await systemGroupId(t, "role:moderators");
      const msg = "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group";
      assertError((await create("hamlet", { invite_only: true, can_create_topic_group: moderators })).res, msg);
      const anonymous = { direct_members: [t.users.hamlet.id], direct_subgroups: [everyone] };
      assertError((await create("hamlet", { invite_only: true, can_create_topic_group: anonymous })).res, msg);
      assert.equal((await create("hamlet", { invite_only: true, can_create_topic_group: everyone })).res.status, 200);
      const canonical = { direct_members: [], direct_subgroups: [everyone] };
      assert.equal((await create("hamlet", { invite_only: true, can_create_topic_group: canonical })).res.status, 200);
      const shared = { invite_only: true, history_public_to_subscribers: true, can_create_topic_group: moderators };
      assert.equal((await create("hamlet", shared)).stream.can_create_topic_group, moderators);
      assert.equal((await create("hamlet", { can_create_topic_group: moderators })).stream.can_create_topic_group, moderators);
    });

    it("lists the creator as the default channel administrator and they may administer it", async () => {
      const { res, stream } = await create("hamlet", { invite_only: true, subscribers: [t.users.hamlet.id] });
      assert.deepEqual(stream.can_administer_channel_group, { direct_members: ids(t, "hamlet"), direct_subgroups: [] });
      assert.equal((await t.as("hamlet").patch(`/streams/${res.body.id}`, { description: "mine" })).status, 200);
    });
  });
}
