/** GET and POST /users/me/subscriptions: listing, subscribing oneself and others, creating channels on the way. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertError, checkPermissions } from "../helpers/org.js";
import { addGroup, eventsOf, ids, setRealmGroups, setRealmSetting, systemGroupId } from "../helpers/channels.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`GET/POST /users/me/subscriptions [${kind}]`, () => {
    let t: TestRealm;
    const channel: Record<string, number> = {};
    before(async () => {
      t = await createTestRealm(kind);
      const make = async (name: string, subscribers: UserName[], params: Record<string, unknown> = {}) => {
        const res = await t.as("iago").post("/channels/create", { name, subscribers: subscribers.map((u) => t.users[u].id), ...params });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        channel[name] = res.body.id;
      };
      await make("Denmark", ["hamlet", "othello"]);
      await make("Scotland", ["othello"]);
      await make("secret", ["othello"], { invite_only: true });
      await make("gone", ["hamlet"]);
      assert.equal((await t.as("iago").delete(`/streams/${channel.gone}`)).status, 200);
    });
    after(() => t.close());

    const subscribe = (who: UserName, params: Record<string, unknown>) => t.as(who).post("/users/me/subscriptions", params);

    it("lists the caller's subscriptions with channel fields and personal settings", async () => {
      const res = await t.as("othello").get("/users/me/subscriptions");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const subs = res.body.subscriptions;
      assert.deepEqual(subs.map((s: { name: string }) => s.name), ["Denmark", "Scotland", "secret"]);
      const denmark = subs[0];
      for (const key of ["stream_id", "description", "rendered_description", "invite_only", "color", "pin_to_top", "is_muted", "in_home_view", "can_remove_subscribers_group", "subscriber_count", "is_archived", "stream_weekly_traffic"]) {
        assert.ok(key in denmark, key);
      }
      assert.equal(denmark.desktop_notifications, null);
      assert.equal(denmark.in_home_view, true);
      assert.equal("subscribers" in denmark, false);
      const withSubscribers = (await t.as("othello").get("/users/me/subscriptions", { include_subscribers: true })).body.subscriptions;
      assert.deepEqual(withSubscribers[0].subscribers, ids(t, "hamlet", "othello"));
      assert.deepEqual((await t.as("othello").get("/users/me/subscriptions", { include_subscribers: "partial" })).body.subscriptions[0].subscribers, ids(t, "hamlet", "othello"));
      assert.deepEqual((await t.as("hamlet").get("/users/me/subscriptions")).body.subscriptions.map((s: { name: string }) => s.name), ["Denmark"], "archived channels are left out");
      assert.equal((await t.as("othello").get("/users/me/subscriptions", { include_subscribers: "sometimes" })).status, 400);
    });

    it("subscribes the caller, reporting new and existing subscriptions by user id, with events", async () => {
      const from = t.published.length;
      const res = await subscribe("hamlet", { subscriptions: [{ name: "Scotland" }, { name: "denmark" }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.subscribed, { [t.users.hamlet.id]: ["Scotland"] });
      assert.deepEqual(res.body.already_subscribed, { [t.users.hamlet.id]: ["Denmark"] });
      assert.equal(res.body.new_subscription_messages_sent, true);
      assert.equal("unauthorized" in res.body, false);
      const [add] = eventsOf(t, "subscription", "add", from);
      assert.deepEqual(add.userIds, [t.users.hamlet.id]);
      assert.deepEqual((add.event.subscriptions as Array<{ name: string; subscribers: number[] }>).map((s) => [s.name, s.subscribers]), [["Scotland", ids(t, "hamlet", "othello")]]);
      const [peer] = eventsOf(t, "subscription", "peer_add", from);
      assert.deepEqual([peer.event.stream_ids, peer.event.user_ids], [[channel.Scotland], [t.users.hamlet.id]]);
      assert.ok(!peer.userIds.includes(t.users.hamlet.id) && !peer.userIds.includes(t.users.polonius.id));
      assert.equal(eventsOf(t, "stream", "create", from).length, 0, "hamlet could already see Scotland");
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "Scotland", color: "red" }] }), "add.color is not a valid hex color code", "REQUEST_VARIABLE_INVALID");
    });

    it("lets every kind of caller but guests subscribe themselves to a public channel", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "bot"], (caller) => subscribe(caller, { subscriptions: [{ name: "Scotland" }] }));
    });

    it("refuses guests and private channels without access; non-fatal mode lists them as unauthorized", async () => {
      assertError(await subscribe("polonius", { subscriptions: [{ name: "Denmark" }] }), "Not allowed for guest users");
      assertError(await subscribe("cordelia", { subscriptions: [{ name: "secret" }] }), "Unable to access channel (secret).");
      assertError(await subscribe("iago", { subscriptions: [{ name: "secret" }] }), "Unable to access channel (secret).");
      const res = await subscribe("cordelia", { subscriptions: [{ name: "secret" }, { name: "Denmark" }], authorization_errors_fatal: false });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.unauthorized, ["secret"]);
      assert.deepEqual(res.body.subscribed, { [t.users.cordelia.id]: ["Denmark"] });
    });

    it("lets members of can_subscribe_group join a private channel, which they then learn about", async () => {
      const joiners = await addGroup(t, "joiners", ["cordelia"]);
      const change = { can_subscribe_group: JSON.stringify({ new: joiners }) };
      assertError(await t.as("iago").patch(`/streams/${channel.secret}`, change), "Channel content access is required.");
      const club = await t.as("desdemona").post("/channels/create", { name: "club", subscribers: [t.users.desdemona.id], invite_only: true, can_subscribe_group: joiners });
      assert.equal(club.status, 200, JSON.stringify(club.body));
      const from = t.published.length;
      assert.equal((await subscribe("cordelia", { subscriptions: [{ name: "club" }] })).status, 200);
      assert.deepEqual(eventsOf(t, "subscription", "add", from)[0].userIds, [t.users.cordelia.id]);
      assert.equal(eventsOf(t, "stream", "create", from).length, 0, "her group already showed her the channel");
      assertError(await subscribe("othello", { subscriptions: [{ name: "club" }] }), "Unable to access channel (club).");
      const from2 = t.published.length;
      assert.equal((await subscribe("desdemona", { subscriptions: [{ name: "club" }], principals: [t.users.othello.id] })).status, 200);
      assert.deepEqual(eventsOf(t, "stream", "create", from2)[0].userIds, [t.users.othello.id], "othello learns about the channel first");
    });

    it("subscribes others given as ids or emails, with the add-subscribers permission", async () => {
      const res = await subscribe("hamlet", { subscriptions: [{ name: "Denmark" }], principals: [t.users.cordelia.email, t.users.shiva.email] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body.subscribed).sort(), [String(t.users.shiva.id)].sort());
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "Denmark" }], principals: [99999] }), "No such user");
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "Denmark" }], principals: ["nobody@zulip.test"] }), "No such user");
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "Denmark" }], principals: [1, "x@y.z"] }), "principals[1] is not an integer", "REQUEST_VARIABLE_INVALID");
      await setRealmGroups(t, { can_add_subscribers_group_id: "role:administrators" });
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "Scotland" }], principals: [t.users.polonius.id] }), "Insufficient permission");
      assert.equal((await subscribe("hamlet", { subscriptions: [{ name: "Scotland" }], principals: [t.users.hamlet.id] })).status, 200, "oneself is fine");
      assert.equal((await subscribe("iago", { subscriptions: [{ name: "Scotland" }], principals: [t.users.polonius.id] })).status, 200);
      const adders = await addGroup(t, "adders", ["hamlet"]);
      assert.equal((await t.as("iago").patch(`/streams/${channel.Denmark}`, { can_add_subscribers_group: JSON.stringify({ new: adders }) })).status, 200);
      assert.equal((await subscribe("hamlet", { subscriptions: [{ name: "Denmark" }], principals: [t.users.polonius.id] })).status, 200);
      assertError(await subscribe("iago", { subscriptions: [{ name: "secret" }], principals: [t.users.hamlet.id] }), "Unable to access channel (secret).");
      await setRealmGroups(t, { can_add_subscribers_group_id: "role:members" });
    });

    it("tells users someone else subscribed them, unless asked not to", async () => {
      const bot = t.users.bot.id;
      let from = t.published.length;
      const res = await subscribe("othello", { subscriptions: [{ name: "Scotland" }], principals: [t.users.cordelia.id, bot] });
      assert.equal(res.body.new_subscription_messages_sent, true);
      const dms = eventsOf(t, "message", undefined, from);
      assert.equal(dms.length > 0, true);
      assert.equal(dms[0].event.raw_content, `@_**Othello, the Moor of Venice|${t.users.othello.id}** subscribed you to #**Scotland**.`);
      assert.equal((dms[0].event.message as { sender_email: string }).sender_email, "notification-bot@zulip.com");
      assert.ok(dms.every((d) => !d.userIds.includes(bot)), "bots get no notice");
      from = t.published.length;
      const quiet = await subscribe("othello", { subscriptions: [{ name: "Denmark" }], principals: [t.users.cordelia.id], send_new_subscription_messages: false });
      assert.equal("new_subscription_messages_sent" in quiet.body, false);
      assert.equal(eventsOf(t, "message", undefined, from).length, 0);
    });

    it("creates missing channels with the creation rules and settings, announcing them if asked", async () => {
      const announce = channel.Denmark;
      await setRealmSetting(t, "new_stream_announcements_stream_id", announce);
      const moderators = await systemGroupId(t, "role:moderators");
      const from = t.published.length;
      const res = await subscribe("hamlet", {
        subscriptions: [{ name: "  fresh  ", description: "A\nfresh one", color: "#abcdef" }, { name: "newer" }],
        principals: [t.users.hamlet.id, t.users.othello.id],
        invite_only: true,
        history_public_to_subscribers: true,
        can_send_message_group: moderators,
        announce: true,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.subscribed[t.users.hamlet.id], ["fresh", "newer"]);
      const listed = (await t.as("hamlet").get("/users/me/subscriptions")).body.subscriptions;
      const fresh = listed.find((s: { name: string }) => s.name === "fresh");
      assert.equal(fresh.description, "A fresh one");
      assert.equal(fresh.color, "#abcdef");
      assert.equal(fresh.invite_only, true);
      assert.equal(fresh.history_public_to_subscribers, true);
      assert.equal(fresh.can_send_message_group, moderators);
      assert.deepEqual(fresh.can_administer_channel_group, { direct_members: [t.users.hamlet.id], direct_subgroups: [] });
      const created = eventsOf(t, "stream", "create", from);
      assert.equal(created.length, 2);
      assert.deepEqual(created[0].userIds.sort((a, b) => a - b), ids(t, "desdemona", "iago", "hamlet", "othello"));
      const notices = eventsOf(t, "message", undefined, from).map((m) => m.event.raw_content);
      assert.ok(notices.includes(`@_**King Hamlet|${t.users.hamlet.id}** created the following channels: #**fresh**, #**newer**.`));
      assert.ok(!notices.some((c) => String(c).includes("subscribed you")), "no notice for channels created by the request");
      await setRealmSetting(t, "new_stream_announcements_stream_id", -1);
    });

    it("applies every creation rule to the channels it creates", async () => {
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "" }] }), "Channel name can't be empty.");
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "n".repeat(61) }] }), "Channel name too long (limit: 60 characters).");
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "desc", description: "d".repeat(1025) }] }), "Channel description too long (limit: 1024 characters).");
      assertError(await subscribe("iago", { subscriptions: [{ name: "kept" }], message_retention_days: 5 }), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "dflt" }], is_default_stream: true }), "Insufficient permission");
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "tp" }], topics_policy: "disable_empty_topic" }), "Insufficient permission");
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "fld" }], folder_id: 99999 }), "Invalid channel folder ID");
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "x" }], can_subscribe_group: await systemGroupId(t, "role:everyone") }), "'can_subscribe_group' setting cannot be set to 'role:everyone' group.", "REQUEST_VARIABLE_INVALID");
      await setRealmGroups(t, { can_create_public_channel_group_id: "role:administrators" });
      assertError(await subscribe("hamlet", { subscriptions: [{ name: "blocked" }] }), "Insufficient permission");
      assert.equal((await subscribe("hamlet", { subscriptions: [{ name: "Denmark" }] })).status, 200, "existing channels need no creation rights");
      await setRealmGroups(t, { can_create_public_channel_group_id: "role:members" });
      assertError(await t.as("hamlet").get("/get_stream_id", { stream: "blocked" }), "Invalid channel name 'blocked'", "BAD_REQUEST");
    });

    it("gives a new subscriber future messages only, and old ones when history is shared", async () => {
      const send = async (to: string, content: string) => (await t.as("othello").post("/messages", { type: "stream", to, topic: "t", content })).body.id;
      for (const [name, shared] of [["protected", false], ["shared", true]] as const) {
        const members = await systemGroupId(t, "role:members");
        const made = await t.as("desdemona").post("/channels/create", { name, subscribers: [t.users.othello.id], invite_only: true, history_public_to_subscribers: shared, can_subscribe_group: members });
        assert.equal(made.status, 200, JSON.stringify(made.body));
        const old = await send(name, "before");
        assert.equal((await subscribe("cordelia", { subscriptions: [{ name }] })).status, 200);
        const fresh = await send(name, "after");
        assert.equal((await t.as("cordelia").get(`/messages/${fresh}`)).status, 200);
        assert.equal((await t.as("cordelia").get(`/messages/${old}`)).status, shared ? 200 : 400, name);
      }
    });
  });
}
