/**
 * can_access_all_users_group (FL 225; issue 16, F6): what a guest limited by it may read about
 * other users, against Zulip's rules (zerver/lib/users.py) written down in helpers/user-access.ts.
 * Each surface is checked for the limited guest, for the same guest once the setting is back to
 * role:everyone, and for a member, whom the setting never limits.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { inaccessibleUserObject } from "../events/event-state.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { addUser, assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { ACCESSIBLE, INACCESSIBLE, ids, setAccessAllUsersGroup, setUpLimitedGuest, type LimitedGuestWorld } from "../helpers/user-access.js";

/** Zulip's get_fake_email_domain for the test realm's host (helpers/fixtures EXTERNAL_HOST without its port). */
const DOMAIN = "testserver.local";

for (const kind of STORE_KINDS) {
  describe(`user access of limited guests [${kind}]`, () => {
    let t: TestRealm;
    let world: LimitedGuestWorld;
    before(async () => {
      t = await createTestRealm(kind);
      world = await setUpLimitedGuest(t);
    });
    after(() => t.close());

    const everyoneIds = () => Object.values(t.users).map((u) => u.id).sort((a, b) => a - b);
    const listedIds = async (who: UserName) => {
      const res = await t.as(who).get("/users");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.members as Array<{ user_id: number }>).map((m) => m.user_id).filter((id) => everyoneIds().includes(id)).sort((a, b) => a - b);
    };
    /** Runs `check` with the setting at role:everyone, then puts it back to role:members. */
    const whileUnlimited = async (check: () => Promise<void>) => {
      await setAccessAllUsersGroup(t, "role:everyone");
      try {
        await check();
      } finally {
        await setAccessAllUsersGroup(t, "role:members");
      }
    };

    it("GET /users leaves inaccessible users out for the guest (FL 437), not for a member, nor once unlimited", async () => {
      assert.deepEqual(await listedIds("polonius"), ids(t, ACCESSIBLE));
      assert.deepEqual(await listedIds("hamlet"), everyoneIds());
      await whileUnlimited(async () => assert.deepEqual(await listedIds("polonius"), everyoneIds()));
    });

    it("GET /users/{id} and /users/{email} refuse an inaccessible user with Zulip's error", async () => {
      for (const name of INACCESSIBLE) {
        assertError(await t.as("polonius").get(`/users/${t.users[name].id}`), "Insufficient permission");
        assertError(await t.as("polonius").get(`/users/${t.users[name].email}`), "Insufficient permission");
        assert.equal((await t.as("hamlet").get(`/users/${t.users[name].id}`)).status, 200);
      }
      for (const name of ACCESSIBLE) {
        const res = await t.as("polonius").get(`/users/${t.users[name].id}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.user.full_name, t.users[name].fullName);
      }
      // Unknown ids still read "No such user": the access check comes after existence, as in Zulip.
      assertError(await t.as("polonius").get("/users/999999"), "No such user");
      await whileUnlimited(async () => assert.equal((await t.as("polonius").get(`/users/${t.users.cordelia.id}`)).status, 200));
    });

    it("register's realm_users has an \"Unknown user\" for each inaccessible user, in user-id order", async () => {
      const res = await t.as("polonius").post("/register", { fetch_event_types: ["realm_user"] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const users = res.body.realm_users as Array<Record<string, unknown>>;
      const listed = users.map((u) => u.user_id as number).filter((id) => everyoneIds().includes(id));
      assert.deepEqual(listed, everyoneIds());
      assert.deepEqual(users.map((u) => u.user_id), [...users.map((u) => u.user_id as number)].sort((a, b) => a - b));
      for (const name of INACCESSIBLE) {
        const id = t.users[name].id;
        assert.deepEqual(users.find((u) => u.user_id === id), inaccessibleUserObject(id, DOMAIN));
      }
      for (const name of ACCESSIBLE) assert.equal(users.find((u) => u.user_id === t.users[name].id)?.full_name, t.users[name].fullName);
      // The guest's own object carries their own address.
      assert.equal(users.find((u) => u.user_id === t.users.polonius.id)?.delivery_email, t.users.polonius.email);
    });

    it("register leaves them out for a client that declared user_list_incomplete (FL 232)", async () => {
      const res = await t.as("polonius").post("/register", { fetch_event_types: ["realm_user"], client_capabilities: { user_list_incomplete: true } });
      const listed = (res.body.realm_users as Array<{ user_id: number }>).map((u) => u.user_id).filter((id) => everyoneIds().includes(id));
      assert.deepEqual(listed, ids(t, ACCESSIBLE));
    });

    it("register gives a member, and the guest once unlimited, every user as they are", async () => {
      const names = async (who: UserName) => {
        const res = await t.as(who).post("/register", { fetch_event_types: ["realm_user"] });
        return new Map((res.body.realm_users as Array<{ user_id: number; full_name: string }>).map((u) => [u.user_id, u.full_name]));
      };
      const hamlet = await names("hamlet");
      for (const name of INACCESSIBLE) assert.equal(hamlet.get(t.users[name].id), t.users[name].fullName);
      await whileUnlimited(async () => {
        const polonius = await names("polonius");
        for (const name of INACCESSIBLE) assert.equal(polonius.get(t.users[name].id), t.users[name].fullName);
      });
    });

    it("user ids stay visible in group members and channel subscribers, as Zulip's help says", async () => {
      const res = await t.as("polonius").post("/register", { fetch_event_types: ["realm_user_groups", "subscription"], include_subscribers: true });
      const members = (res.body.realm_user_groups as Array<{ name: string; members: number[] }>).find((g) => g.name === "role:members")!.members;
      assert.ok(members.includes(t.users.cordelia.id));
      const channel = (res.body.subscriptions as Array<{ stream_id: number; subscribers: number[] }>).find((s) => s.stream_id === world.publicId)!;
      assert.deepEqual([...channel.subscribers].sort((a, b) => a - b), ids(t, ["polonius", "hamlet"]));
    });

    it("user_status in register leaves out users the guest may not access (FL 228)", async () => {
      for (const name of ["hamlet", "cordelia"] as const) {
        assert.equal((await t.as(name).post("/users/me/status", { status_text: `${name} is busy` })).status, 200);
      }
      const status = async (who: UserName) => (await t.as(who).post("/register", { fetch_event_types: ["user_status"] })).body.user_status;
      const guest = await status("polonius");
      assert.equal(guest[String(t.users.hamlet.id)]?.status_text, "hamlet is busy");
      assert.equal(guest[String(t.users.cordelia.id)], undefined);
      assert.equal((await status("hamlet"))[String(t.users.cordelia.id)]?.status_text, "cordelia is busy");
      assertError(await t.as("polonius").get(`/users/${t.users.cordelia.id}/status`), "Insufficient permission");
      assert.equal((await t.as("polonius").get(`/users/${t.users.hamlet.id}/status`)).status, 200);
    });

    it("another read of one user refuses an inaccessible one: subscription status (Zulip's test_subs)", async () => {
      assertError(await t.as("polonius").get(`/users/${t.users.othello.id}/subscriptions/${world.publicId}`), "Insufficient permission");
      assert.equal((await t.as("polonius").get(`/users/${t.users.hamlet.id}/subscriptions/${world.publicId}`)).body.is_subscribed, true);
    });

    it("GET /avatar/{id|email} of an inaccessible user goes to the unknown-user image, which is served", async () => {
      const host = t.host;
      const auth = "Basic " + Buffer.from(`${t.users.polonius.email}:${t.users.polonius.apiKey}`).toString("base64");
      for (const key of [String(t.users.cordelia.id), t.users.cordelia.email]) {
        const res = await t.app.inject({ method: "GET", url: `/avatar/${key}?foo=bar`, headers: { host, authorization: auth } });
        assert.equal(res.statusCode, 302);
        assert.equal(res.headers.location, "/static/images/unknown-user-avatar.png?foo=bar");
      }
      const own = await t.app.inject({ method: "GET", url: `/avatar/${t.users.hamlet.id}`, headers: { host, authorization: auth } });
      assert.match(String(own.headers.location), /defaults/);
      const image = await t.app.inject({ method: "GET", url: "/static/images/unknown-user-avatar.png", headers: { host } });
      assert.equal(image.statusCode, 200);
      assert.equal(image.headers["content-type"], "image/png");
    });

    it("messages from an inaccessible sender read as from \"Unknown user\" for the guest only", async () => {
      const fetch = async (who: UserName) => {
        const res = await t.as(who).get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow: [{ operator: "channel", operand: world.publicId }] });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return (res.body.messages as Array<Record<string, unknown>>).find((m) => m.id === world.othelloMessageId)!;
      };
      const hidden = await fetch("polonius");
      assert.equal(hidden.sender_id, t.users.othello.id);
      assert.equal(hidden.sender_full_name, "Unknown user");
      assert.equal(hidden.sender_email, `user${t.users.othello.id}@${DOMAIN}`);
      assert.equal(hidden.avatar_url, "/static/images/unknown-user-avatar.png");
      const single = await t.as("polonius").get(`/messages/${world.othelloMessageId}`);
      assert.equal(single.body.message.sender_full_name, "Unknown user");
      const shown = await fetch("hamlet");
      assert.equal(shown.sender_full_name, t.users.othello.fullName);
      await whileUnlimited(async () => assert.equal((await fetch("polonius")).sender_full_name, t.users.othello.fullName));
    });

    it("direct messages and typing to inaccessible users are refused with Zulip's error", async () => {
      const refused = "You do not have permission to access some of the recipients.";
      for (const to of [[t.users.cordelia.id], [t.users.cordelia.id, t.users.hamlet.id]]) {
        assertError(await t.as("polonius").post("/messages", { type: "direct", to, content: "hi" }), refused);
        assertError(await t.as("polonius").post("/typing", { op: "start", to }), refused);
      }
      for (const to of [[t.users.hamlet.id], [t.users.bot.id], [t.users.polonius.id]]) {
        assert.equal((await t.as("polonius").post("/messages", { type: "direct", to, content: "hi" })).status, 200);
        assert.equal((await t.as("polonius").post("/typing", { op: "start", to })).status, 200);
      }
      assert.equal((await t.as("hamlet").post("/messages", { type: "direct", to: [t.users.cordelia.id], content: "hi" })).status, 200);
      // A deactivated inaccessible user: the access error comes first, so their address stays unsaid.
      const gone = await addUser(t);
      assert.equal((await t.as("iago").delete(`/users/${gone.id}`)).status, 200);
      assertError(await t.as("polonius").post("/messages", { type: "direct", to: [gone.id], content: "hi" }), refused);
      assertError(await t.as("hamlet").post("/messages", { type: "direct", to: [gone.id], content: "hi" }), `'${gone.email}' is no longer using Zulip.`);
    });

    it("a guest's mention of an inaccessible user stays plain text; a member's resolves", async () => {
      const render = async (who: UserName, name: UserName) =>
        String((await t.as(who).post("/messages/render", { content: `@**${t.users[name].fullName}**` })).body.rendered);
      assert.doesNotMatch(await render("polonius", "cordelia"), /user-mention/);
      const byId = await t.as("polonius").post("/messages/render", { content: `@_**|${t.users.cordelia.id}** @**Cordelia, Lear's daughter|${t.users.cordelia.id}**` });
      assert.doesNotMatch(String(byId.body.rendered), /user-mention/);
      assert.match(await render("polonius", "hamlet"), new RegExp(`data-user-id="${t.users.hamlet.id}"`));
      assert.match(await render("hamlet", "cordelia"), new RegExp(`data-user-id="${t.users.cordelia.id}"`));
    });

    it("deactivated users: an inaccessible one is one more active \"Unknown user\"; a DM partner stays listed as deactivated", async () => {
      const [stranger, partner] = [await addUser(t), await addUser(t)];
      assert.equal((await t.as(partner).post("/messages", { type: "direct", to: [t.users.polonius.id], content: "hi" })).status, 200);
      for (const u of [stranger, partner]) assert.equal((await t.as("iago").delete(`/users/${u.id}`)).status, 200);
      const res = await t.as("polonius").post("/register", { fetch_event_types: ["realm_user"] });
      const active = res.body.realm_users as Array<Record<string, unknown>>;
      const inactive = res.body.realm_non_active_users as Array<Record<string, unknown>>;
      assert.deepEqual(active.find((u) => u.user_id === stranger.id), inaccessibleUserObject(stranger.id, DOMAIN));
      assert.equal(inactive.some((u) => u.user_id === stranger.id), false);
      assert.equal(inactive.find((u) => u.user_id === partner.id)?.full_name, partner.fullName);
      assert.equal((await t.as("polonius").get(`/users/${partner.id}`)).status, 200);
      assertError(await t.as("polonius").get(`/users/${stranger.id}`), "Insufficient permission");
    });

    it("presence of every user id stays visible by default, as in Zulip", async () => {
      await t.as("cordelia").post("/users/me/presence", { status: "active" });
      await t.deps.presence.flush();
      const presences = (await t.as("polonius").post("/register", { fetch_event_types: ["presence"], slim_presence: true })).body.presences;
      assert.ok(String(t.users.cordelia.id) in presences);
      assert.equal((await t.as("polonius").get(`/users/${t.users.cordelia.id}/presence`)).status, 200);
    });
  });

  describe(`CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind, { canAccessAllUsersGroupLimitsPresence: true });
      await setUpLimitedGuest(t);
      for (const name of ["cordelia", "hamlet"] as const) await t.as(name).post("/users/me/presence", { status: "active" });
      await t.deps.presence.flush();
    });
    after(() => t.close());

    it("limits the guest's presence data to accessible users", async () => {
      const presences = (await t.as("polonius").post("/register", { fetch_event_types: ["presence"], slim_presence: true })).body.presences;
      assert.ok(String(t.users.hamlet.id) in presences);
      assert.ok(!(String(t.users.cordelia.id) in presences));
      const realm = (await t.as("polonius").get("/realm/presence")).body.presences;
      assert.deepEqual(Object.keys(realm).sort(), [t.users.hamlet.email].sort());
      assertError(await t.as("polonius").get(`/users/${t.users.cordelia.id}/presence`), "Insufficient permission");
      assert.ok(String(t.users.cordelia.id) in (await t.as("hamlet").post("/register", { fetch_event_types: ["presence"], slim_presence: true })).body.presences);
    });
  });
}
