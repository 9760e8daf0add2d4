/** POST /channels/create (spec 4.3): names, descriptions, subscribers, permissions, events, announcements. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { transaction } from "../../src/store/db.js";
import { updateUser } from "../../src/store/users.js";
import { eventsOf, ids, setRealmGroups, setRealmSetting, systemGroupId } from "../helpers/channels.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`POST /channels/create [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    const create = (who: Parameters<TestRealm["as"]>[0], params: Record<string, unknown>) =>
      t.as(who).post("/channels/create", { subscribers: [], ...params });

    it("creates a public channel with its settings and announces it to everyone who can see it", async () => {
      const from = t.published.length;
      const res = await create("hamlet", {
        name: "  Verona  ",
        description: "The **fair**\ncity",
        subscribers: [t.users.hamlet.id, t.users.othello.id],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ["id", "msg", "result"]);
      const { stream } = (await t.as("cordelia").get(`/streams/${res.body.id}`)).body;
      assert.equal(stream.name, "Verona");
      assert.equal(stream.description, "The **fair** city");
      assert.equal(stream.rendered_description, "<p>The <strong>fair</strong> city</p>");
      assert.equal(stream.invite_only, false);
      assert.equal(stream.is_web_public, false);
      assert.equal(stream.history_public_to_subscribers, true);
      assert.equal(stream.creator_id, t.users.hamlet.id);
      assert.equal(stream.message_retention_days, null);
      assert.equal(stream.topics_policy, "inherit");
      assert.equal(stream.subscriber_count, 2);
      assert.deepEqual(stream.can_administer_channel_group, { direct_members: [t.users.hamlet.id], direct_subgroups: [] });
      assert.equal(stream.can_remove_subscribers_group, await systemGroupId(t, "role:administrators"));
      assert.equal(stream.can_send_message_group, await systemGroupId(t, "role:everyone"));
      assert.equal(stream.can_subscribe_group, await systemGroupId(t, "role:nobody"));

      const [created] = eventsOf(t, "stream", "create", from);
      assert.equal(created.event.streams instanceof Array && (created.event.streams as Array<{ name: string }>)[0].name, "Verona");
      assert.deepEqual(created.userIds.sort((a, b) => a - b), ids(t, "desdemona", "iago", "shiva", "hamlet", "othello", "cordelia", "bot"));
      const adds = eventsOf(t, "subscription", "add", from);
      assert.deepEqual(adds.map((e) => e.userIds[0]).sort((a, b) => a - b), ids(t, "hamlet", "othello"));
      const sub = (adds[0].event.subscriptions as Array<Record<string, unknown>>)[0];
      assert.equal(sub.stream_id, res.body.id);
      assert.match(sub.color as string, /^#[0-9a-f]{6}$/);
      assert.deepEqual(sub.subscribers, ids(t, "hamlet", "othello"));
      assert.equal(sub.is_muted, false);
      assert.equal(sub.desktop_notifications, null);
      const [peer] = eventsOf(t, "subscription", "peer_add", from);
      assert.deepEqual(peer.event.user_ids, ids(t, "hamlet", "othello"));
      assert.deepEqual(peer.event.stream_ids, [res.body.id]);
      assert.deepEqual(peer.userIds.sort((a, b) => a - b), ids(t, "desdemona", "iago", "shiva", "cordelia", "bot"));
    });

    it("sends a private channel's create event only to administrators and subscribers", async () => {
      const from = t.published.length;
      const res = await create("hamlet", { name: "secret", invite_only: true, subscribers: [t.users.hamlet.id, t.users.cordelia.id] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [created] = eventsOf(t, "stream", "create", from);
      assert.deepEqual(created.userIds.sort((a, b) => a - b), ids(t, "desdemona", "iago", "hamlet", "cordelia"));
      const [peer] = eventsOf(t, "subscription", "peer_add", from);
      assert.deepEqual(peer.userIds.sort((a, b) => a - b), ids(t, "desdemona", "iago"));
      assertError(await t.as("othello").get(`/streams/${res.body.id}`), "Invalid channel ID");
      assert.equal((await t.as("iago").get(`/streams/${res.body.id}`)).body.stream.history_public_to_subscribers, false);
    });

    it("checks the name: trimmed, non-empty, at most 60 characters, printable, unused", async () => {
      assertError(await create("hamlet", { name: "   " }), "Channel name can't be empty.");
      assertError(await create("hamlet", { name: "x".repeat(61) }), "Channel name too long (limit: 60 characters).");
      assertError(await create("hamlet", { name: "bad\u0001name" }), "Invalid character in channel name, at position 4.");
      assertError(await create("hamlet", { name: "VERONA" }), "Channel 'VERONA' already exists", "CHANNEL_ALREADY_EXISTS", 409);
      assertError(await create("hamlet", {}), "Missing 'name' argument", "REQUEST_VARIABLE_MISSING");
      assert.equal((await create("hamlet", { name: "y".repeat(60) })).status, 200);
      assert.equal((await create("hamlet", { name: "Ünïcode ☃" })).status, 200);
    });

    it("finds a taken name as the unique index does, even where JavaScript lower-cases differently (found by fuzzing: a 500)", async () => {
      assert.equal((await create("hamlet", { name: "İstanbul" })).status, 200);
      assertError(await create("hamlet", { name: "İstanbul" }), "Channel 'İstanbul' already exists", "CHANNEL_ALREADY_EXISTS", 409);
    });

    it("bounds the description at 1024 characters", async () => {
      assert.equal((await create("hamlet", { name: "long-desc", description: "d".repeat(1024) })).status, 200);
      const res = await create("hamlet", { name: "too-long-desc", description: "d".repeat(1025) });
      assert.equal(res.status, 400);
      assert.match(res.body.msg, /too long/);
    });

    it("refuses guests and follows the realm's who-can-create settings", async () => {
      assertError(await create("polonius", { name: "guest-channel" }), "Not allowed for guest users");
      await setRealmGroups(t, { can_create_public_channel_group_id: "role:administrators", can_create_private_channel_group_id: "role:moderators" });
      assertError(await create("hamlet", { name: "members-cannot" }), "Insufficient permission");
      assert.equal((await create("iago", { name: "admins-can" })).status, 200);
      assertError(await create("hamlet", { name: "private-members-cannot", invite_only: true }), "Insufficient permission");
      assert.equal((await create("shiva", { name: "private-mods-can", invite_only: true })).status, 200);
      await setRealmGroups(t, { can_create_public_channel_group_id: "role:members", can_create_private_channel_group_id: "role:members" });
    });

    it("lets every kind of caller but guests create a public channel", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "bot"], (caller) => create(caller, { name: `by-${caller}` }));
    });

    it("validates subscribers: unknown or deactivated users, and subscribing others", async () => {
      assertError(await create("hamlet", { name: "ghosts", subscribers: [t.users.hamlet.id, 99999] }), "No such user");
      assertError(await create("hamlet", { name: "ghosts", subscribers: "not a list" }), "Argument \"subscribers\" is not valid JSON.", "INVALID_JSON");
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.cordelia.id, { is_active: false }));
      assertError(await create("hamlet", { name: "ghosts", subscribers: [t.users.cordelia.id] }), "No such user");
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.cordelia.id, { is_active: true }));
      // Without the realm's permission and without administering the new channel, one may only subscribe oneself.
      await setRealmGroups(t, { can_add_subscribers_group_id: "role:nobody" });
      const admins = await systemGroupId(t, "role:administrators");
      const notAdmin = { can_administer_channel_group: admins };
      assertError(await create("hamlet", { name: "lonely", subscribers: [t.users.othello.id], ...notAdmin }), "Insufficient permission");
      assert.equal((await create("hamlet", { name: "lonely", subscribers: [t.users.hamlet.id], ...notAdmin })).status, 200);
      assert.equal((await create("hamlet", { name: "lonely-admin", subscribers: [t.users.othello.id] })).status, 200);
      assert.equal((await create("iago", { name: "admin-adds", subscribers: [t.users.othello.id], ...notAdmin })).status, 200);
      await setRealmGroups(t, { can_add_subscribers_group_id: "role:members" });
      assert.equal((await create("hamlet", { name: "realm-allows", subscribers: [t.users.othello.id], ...notAdmin })).status, 200);
      const members = (await t.as("hamlet").get(`/streams/${(await t.as("hamlet").get("/get_stream_id", { stream: "realm-allows" })).body.stream_id}/members`)).body;
      assert.deepEqual(members.subscribers, ids(t, "othello"));
    });

    it("has Notification Bot announce the channel when asked and an announcements channel is set", async () => {
      const announce = (await create("iago", { name: "announce", subscribers: [t.users.iago.id, t.users.cordelia.id] })).body.id;
      let from = t.published.length;
      assert.equal((await create("hamlet", { name: "quiet", announce: true })).status, 200);
      assert.equal(eventsOf(t, "message", undefined, from).length, 0, "no announcements channel configured");
      await setRealmSetting(t, "new_stream_announcements_stream_id", announce);
      from = t.published.length;
      assert.equal((await create("hamlet", { name: "unannounced" })).status, 200);
      assert.equal(eventsOf(t, "message", undefined, from).length, 0);
      from = t.published.length;
      const res = await create("hamlet", { name: "Party", announce: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const messages = eventsOf(t, "message", undefined, from);
      assert.ok(messages.length > 0);
      const message = messages[0].event.message as Record<string, unknown>;
      assert.equal(message.sender_email, "notification-bot@zulip.com");
      assert.equal(message.sender_full_name, "Notification Bot");
      assert.equal(message.stream_id, announce);
      assert.equal(message.subject, "new channels");
      assert.equal(messages[0].event.raw_content, `@_**King Hamlet|${t.users.hamlet.id}** created a new channel #**Party**.`);
      assert.match(message.content as string, /user-mention silent/);
      assert.match(message.content as string, /stream/);
      const receivers = messages.flatMap((m) => m.userIds);
      assert.ok(receivers.includes(t.users.iago.id) && receivers.includes(t.users.cordelia.id));
      assert.ok(!receivers.includes(t.users.hamlet.id));
      await setRealmSetting(t, "new_stream_announcements_stream_id", -1);
    });

    it("writes nothing when a late check fails", async () => {
      const from = t.published.length;
      const res = await create("hamlet", {
        name: "half-made",
        invite_only: true,
        subscribers: [t.users.hamlet.id],
        can_create_topic_group: await systemGroupId(t, "role:moderators"),
      });
      assertError(res, "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group");
      assert.equal(t.published.length, from);
      assertError(await t.as("iago").get("/get_stream_id", { stream: "half-made" }), "Invalid channel name 'half-made'", "BAD_REQUEST");
    });
  });
}
