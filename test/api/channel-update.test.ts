/** PATCH /streams/{stream_id}: who may change what, every property, and the events each change sends. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { addFolder, addGroup, channelRow, eventsOf, ids, setRealm, systemGroupId } from "../helpers/channels.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`PATCH /streams/{id} [${kind}]`, () => {
    let t: TestRealm;
    let n = 0;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    /** A new channel administered by `admin` (its creator) with these subscribers. */
    const make = async (admin: UserName, subscribers: UserName[], params: Record<string, unknown> = {}): Promise<number> => {
      const res = await t.as(admin).post("/channels/create", { name: `upd-${++n}`, subscribers: subscribers.map((u) => t.users[u].id), ...params });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.id;
    };
    const patch = (who: UserName, id: number, params: Record<string, unknown>) => t.as(who).patch(`/streams/${id}`, params);
    const get = async (id: number) => (await t.as("desdemona").get(`/streams/${id}`)).body.stream;

    it("is for realm and channel administrators; others who can read it are told so, the rest get not-found", async () => {
      const id = await make("desdemona", ["hamlet", "polonius"]);
      await checkPermissions(["desdemona", "iago"], (caller) => patch(caller, id, { description: `by ${caller}` }));
      assertError(await patch("hamlet", id, { description: "x" }), "You do not have permission to administer this channel.");
      const secret = await make("desdemona", ["desdemona"], { invite_only: true });
      assertError(await patch("hamlet", secret, { description: "x" }), "Invalid channel ID");
      assertError(await patch("hamlet", 99999, { description: "x" }), "Invalid channel ID");
      const group = await addGroup(t, "editors", ["cordelia"]);
      assert.equal((await patch("iago", id, { can_administer_channel_group: JSON.stringify({ new: group }) })).status, 200);
      assert.equal((await patch("cordelia", id, { description: "by the editors" })).status, 200);
    });

    it("changes the description, rendered, on one line", async () => {
      const id = await make("hamlet", ["hamlet"]);
      const from = t.published.length;
      assert.equal((await patch("hamlet", id, { description: "New\n**bold**" })).status, 200);
      assert.equal((await get(id)).rendered_description, "<p>New <strong>bold</strong></p>");
      const [event] = eventsOf(t, "stream", "update", from);
      assert.deepEqual(
        { ...event.event },
        { type: "stream", op: "update", stream_id: id, name: `upd-${n}`, property: "description", value: "New **bold**", rendered_description: "<p>New <strong>bold</strong></p>" },
      );
      assert.ok(event.userIds.includes(t.users.othello.id) && !event.userIds.includes(t.users.polonius.id));
      assert.equal((await patch("hamlet", id, { description: "d".repeat(1025) })).status, 400);
    });

    it("renames, refusing the same name, taken names and bad names", async () => {
      const id = await make("hamlet", []);
      const taken = await make("hamlet", []);
      const old = (await get(id)).name;
      assertError(await patch("hamlet", id, { new_name: old }), "Channel already has that name.");
      assertError(await patch("hamlet", id, { new_name: ` ${(await get(taken)).name.toUpperCase()} ` }), `Channel '${(await get(taken)).name.toUpperCase()}' already exists`, "CHANNEL_ALREADY_EXISTS", 409);
      assertError(await patch("hamlet", id, { new_name: "" }), "Channel name can't be empty.");
      assertError(await patch("hamlet", id, { new_name: "z".repeat(61) }), "Channel name too long (limit: 60 characters).");
      const from = t.published.length;
      assert.equal((await patch("hamlet", id, { new_name: old.toUpperCase() })).status, 200, "changing case only is fine");
      const [event] = eventsOf(t, "stream", "update", from);
      assert.equal(event.event.property, "name");
      assert.equal(event.event.value, old.toUpperCase());
      assert.equal(event.event.name, old);
    });

    it("changes privacy: content access and create permission needed, and access follows", async () => {
      const id = await make("hamlet", ["hamlet", "othello"]);
      assertError(await patch("hamlet", id, { history_public_to_subscribers: false }), "Invalid parameters");
      assertError(await patch("hamlet", id, { is_private: true, is_web_public: true }), "Invalid parameters");
      await setRealm(t, { can_create_private_channel_group_id: await systemGroupId(t, "role:administrators") });
      assertError(await patch("hamlet", id, { is_private: true }), "Insufficient permission");
      await setRealm(t, { can_create_private_channel_group_id: await systemGroupId(t, "role:members") });
      const from = t.published.length;
      assert.equal((await patch("hamlet", id, { is_private: true })).status, 200);
      const stream = await get(id);
      assert.equal(stream.invite_only, true);
      assert.equal(stream.history_public_to_subscribers, false, "private channels hide history by default");
      const [update] = eventsOf(t, "stream", "update", from);
      assert.deepEqual(
        { property: update.event.property, value: update.event.value, h: update.event.history_public_to_subscribers, w: update.event.is_web_public },
        { property: "invite_only", value: true, h: false, w: false },
      );
      assert.deepEqual(update.userIds.sort((a, b) => a - b), ids(t, "desdemona", "iago", "hamlet", "othello"));
      const [deleted] = eventsOf(t, "stream", "delete", from);
      assert.ok(deleted.userIds.includes(t.users.cordelia.id) && deleted.userIds.includes(t.users.shiva.id));
      assertError(await patch("iago", id, { is_private: false }), "Channel content access is required.");
      const back = t.published.length;
      assert.equal((await patch("hamlet", id, { is_private: false })).status, 200);
      assert.equal((await get(id)).history_public_to_subscribers, true);
      const [created] = eventsOf(t, "stream", "create", back);
      assert.ok(created.userIds.includes(t.users.cordelia.id) && !created.userIds.includes(t.users.hamlet.id));
      const [peers] = eventsOf(t, "subscription", "peer_add", back);
      assert.deepEqual(peers.event.user_ids, ids(t, "hamlet", "othello"));
      assert.equal((await patch("hamlet", id, { is_private: true, history_public_to_subscribers: true })).status, 200);
      assert.equal((await get(id)).history_public_to_subscribers, true);
    });

    it("makes channels web-public only when enabled and permitted", async () => {
      const id = await make("desdemona", ["desdemona"]);
      assertError(await patch("desdemona", id, { is_web_public: true }), "Web-public channels are not enabled.");
      await setRealm(t, { enable_spectator_access: true });
      assertError(await patch("iago", id, { is_web_public: true }), "Insufficient permission");
      const from = t.published.length;
      assert.equal((await patch("desdemona", id, { is_web_public: true })).status, 200);
      assert.ok(eventsOf(t, "stream", "create", from)[0].userIds.includes(t.users.polonius.id), "guests can now see it");
    });

    it("changes default status for realm administrators only", async () => {
      const id = await make("hamlet", ["hamlet"]);
      assertError(await patch("hamlet", id, { is_default_stream: true }), "You do not have permission to change default channels.");
      assert.equal((await patch("iago", id, { is_default_stream: true })).status, 200);
      assertError(await patch("iago", id, { is_private: true }), "A default channel cannot be private.");
      assert.equal((await patch("iago", id, { is_private: true, is_default_stream: false })).status, 200);
      assertError(await patch("iago", id, { is_default_stream: true }), "A default channel cannot be private.");
    });

    it("changes retention for owners, topics policy for those allowed, and the folder", async () => {
      const id = await make("hamlet", ["hamlet"]);
      assertError(await patch("iago", id, { message_retention_days: 30 }), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      let from = t.published.length;
      assert.equal((await patch("desdemona", id, { message_retention_days: 30 })).status, 200);
      assert.equal(eventsOf(t, "stream", "update", from)[0].event.value, 30);
      assert.equal((await patch("desdemona", id, { message_retention_days: "realm_default" })).status, 200);
      assert.equal((await get(id)).message_retention_days, null);
      assertError(await patch("hamlet", id, { topics_policy: "disable_empty_topic" }), "Insufficient permission");
      assert.equal((await patch("iago", id, { topics_policy: "disable_empty_topic" })).status, 200);
      assert.equal((await get(id)).topics_policy, "disable_empty_topic");
      const name = (await get(id)).name;
      assert.equal((await t.as("hamlet").post("/messages", { type: "stream", to: name, topic: "named", content: "x" })).status, 200);
      assert.match((await patch("iago", id, { topics_policy: "empty_topic_only" })).body.msg, /must be in the "general chat" topic/);
      const folder = await addFolder(t, `folder-${n}`);
      from = t.published.length;
      assert.equal((await patch("hamlet", id, { folder_id: folder })).status, 200);
      assert.equal((await get(id)).folder_id, folder);
      assert.deepEqual([eventsOf(t, "stream", "update", from)[0].event.property, eventsOf(t, "stream", "update", from)[0].event.value], ["folder_id", folder]);
      assertError(await patch("hamlet", id, { folder_id: 99999 }), "Invalid channel folder ID");
      assert.equal((await patch("hamlet", id, { folder_id: null })).status, 200);
      assert.equal((await get(id)).folder_id, null);
    });

    it("changes group settings with {new, old?}, checking old and sending the new value", async () => {
      const id = await make("hamlet", ["hamlet"]);
      const moderators = await systemGroupId(t, "role:moderators");
      const everyone = await systemGroupId(t, "role:everyone");
      assertError(await patch("hamlet", id, { can_send_message_group: JSON.stringify({ new: moderators, old: moderators }) }), "'can_send_message_group' value does not match the expected value.", "EXPECTATION_MISMATCH");
      let from = t.published.length;
      assert.equal((await patch("hamlet", id, { can_send_message_group: JSON.stringify({ new: moderators, old: everyone }) })).status, 200);
      // The legacy stream_post_policy follows (FL 333), as Zulip sends it.
      assert.deepEqual(eventsOf(t, "stream", "update", from).map((e) => [e.event.property, e.event.value]), [["can_send_message_group", moderators], ["stream_post_policy", 4]]);
      assert.equal((await get(id)).stream_post_policy, 4);
      from = t.published.length;
      assert.equal((await patch("hamlet", id, { can_send_message_group: JSON.stringify({ new: { direct_members: [], direct_subgroups: [moderators] } }) })).status, 200);
      assert.equal(eventsOf(t, "stream", "update", from).length, 0, "same value, nothing to do");
      const anonymous = { direct_members: [t.users.cordelia.id], direct_subgroups: [moderators] };
      assert.equal((await patch("hamlet", id, { can_remove_subscribers_group: JSON.stringify({ new: anonymous }) })).status, 200);
      assert.deepEqual((await get(id)).can_remove_subscribers_group, anonymous);
      const reordered = { direct_members: [t.users.cordelia.id], direct_subgroups: [moderators] };
      assert.equal((await patch("hamlet", id, { can_remove_subscribers_group: JSON.stringify({ new: everyone, old: reordered }) })).status, 200);
      assertError(await patch("hamlet", id, { can_send_message_group: JSON.stringify({ old: everyone }) }), 'can_send_message_group key is missing: new', "REQUEST_VARIABLE_INVALID");
      assertError(await patch("hamlet", id, { can_delete_any_message_group: JSON.stringify({ new: moderators }) }), "Insufficient permission");
      assert.equal((await patch("iago", id, { can_delete_any_message_group: JSON.stringify({ new: moderators }) })).status, 200);
    });

    it("needs content access for the settings that grant it, and shows the channel to those gaining access", async () => {
      const id = await make("desdemona", ["desdemona"], { invite_only: true });
      const subscribers = JSON.stringify({ new: await addGroup(t, `joiners-${n}`, ["othello"]) });
      assertError(await patch("iago", id, { can_subscribe_group: subscribers }), "Channel content access is required.");
      assert.equal((await patch("iago", id, { description: "admins need no access for this" })).status, 200);
      const from = t.published.length;
      assert.equal((await patch("desdemona", id, { can_subscribe_group: subscribers })).status, 200);
      assert.deepEqual(eventsOf(t, "stream", "create", from)[0].userIds, ids(t, "othello"));
      assert.equal((await t.as("othello").get(`/streams/${id}`)).status, 200);
      assertError(await patch("desdemona", id, { can_create_topic_group: JSON.stringify({ new: await systemGroupId(t, "role:moderators") }) }), "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group");
    });

    it("ignores the legacy stream_post_policy and is_announcement_only, as Zulip has since FL 333, and says so", async () => {
      // Zulip removed both parameters from update-stream at FL 333 (can_send_message_group
      // replaced them); its typed endpoint no longer reads them, so they come back in
      // ignored_parameters_unsupported and nothing changes. The derived values are still shown.
      const id = await make("hamlet", ["hamlet"]);
      const before = await get(id);
      const from = t.published.length;
      const res = await patch("hamlet", id, { stream_post_policy: 2, is_announcement_only: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.ignored_parameters_unsupported, ["stream_post_policy", "is_announcement_only"]);
      const after = await get(id);
      assert.deepEqual(
        [after.can_send_message_group, after.stream_post_policy, after.is_announcement_only],
        [before.can_send_message_group, 1, false],
      );
      assert.equal(eventsOf(t, "stream", "update", from).length, 0);
    });

    it("unarchives with is_archived=false", async () => {
      const id = await make("hamlet", ["hamlet"]);
      assertError(await patch("hamlet", id, { is_archived: false }), "Channel is not currently deactivated");
      assert.equal((await t.as("hamlet").delete(`/streams/${id}`)).status, 200);
      const from = t.published.length;
      assert.equal((await patch("hamlet", id, { is_archived: false })).status, 200);
      assert.equal((await get(id)).is_archived, false);
      assert.ok(eventsOf(t, "stream", "create", from)[0].userIds.includes(t.users.cordelia.id));
    });

    it("changes nothing when any part of the request is refused", async () => {
      const id = await make("hamlet", ["hamlet"]);
      const before = await channelRow(t, id);
      const from = t.published.length;
      assertError(await patch("hamlet", id, { description: "changed", new_name: "" }), "Channel name can't be empty.");
      assert.deepEqual(await channelRow(t, id), before);
      assert.equal(t.published.length, from);
    });
  });
}
