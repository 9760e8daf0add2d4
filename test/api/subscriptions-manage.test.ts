/**
 * Unsubscribing (DELETE /users/me/subscriptions), the bulk add/delete form, subscription
 * settings (POST /users/me/subscriptions/properties, PATCH /users/me/subscriptions/{id}) and
 * GET /users/{user_id}/subscriptions/{stream_id}.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { addUser, assertError, checkPermissions } from "../helpers/org.js";
import { addGroup, eventsOf, ids } from "../helpers/channels.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`managing subscriptions [${kind}]`, () => {
    let t: TestRealm;
    let n = 0;
    let name = "";
    let id = 0;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());
    /** A fresh public channel (iago administers it) with hamlet, othello and cordelia subscribed. */
    beforeEach(async () => {
      name = `channel-${++n}`;
      const res = await t.as("iago").post("/channels/create", { name, subscribers: [t.users.hamlet.id, t.users.othello.id, t.users.cordelia.id] });
      id = res.body.id;
    });

    const unsubscribe = (who: UserName, params: Record<string, unknown>) => t.as(who).delete("/users/me/subscriptions", params);
    const properties = (who: UserName, data: unknown[]) => t.as(who).post("/users/me/subscriptions/properties", { subscription_data: data });
    const mySub = async (who: UserName) =>
      (await t.as(who).get("/users/me/subscriptions")).body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id);

    it("unsubscribes the caller, with remove and peer_remove events", async () => {
      const from = t.published.length;
      const res = await unsubscribe("hamlet", { subscriptions: [name] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual([res.body.removed, res.body.not_removed], [[name], []]);
      const [removed] = eventsOf(t, "subscription", "remove", from);
      assert.deepEqual([removed.userIds, removed.event.subscriptions], [[t.users.hamlet.id], [{ name, stream_id: id }]]);
      const [peer] = eventsOf(t, "subscription", "peer_remove", from);
      assert.deepEqual([peer.event.stream_ids, peer.event.user_ids], [[id], [t.users.hamlet.id]]);
      assert.ok(peer.userIds.includes(t.users.othello.id) && !peer.userIds.includes(t.users.hamlet.id));
      const again = await unsubscribe("hamlet", { subscriptions: [name] });
      assert.deepEqual([again.body.removed, again.body.not_removed], [[], [name]]);
      assertError(await unsubscribe("hamlet", { subscriptions: ["no-such-channel"] }), "Channel 'no-such-channel' does not exist", "STREAM_DOES_NOT_EXIST");
      assertError(await unsubscribe("hamlet", {}), "Missing 'subscriptions' argument", "REQUEST_VARIABLE_MISSING");
    });

    it("removes others only with can_remove_subscribers_group (admins always), one's own bots freely", async () => {
      assertError(await unsubscribe("hamlet", { subscriptions: [name], principals: [t.users.othello.id] }), "Insufficient permission");
      assertError(await unsubscribe("shiva", { subscriptions: [name], principals: [t.users.othello.email] }), "Insufficient permission");
      assertError(await unsubscribe("iago", { subscriptions: [name], principals: [99999] }), "No such user");
      const res = await unsubscribe("desdemona", { subscriptions: [name], principals: [t.users.othello.id] });
      assert.deepEqual(res.body.removed, [name]);
      const removers = await addGroup(t, `removers-${n}`, ["shiva"]);
      assert.equal((await t.as("iago").patch(`/streams/${id}`, { can_remove_subscribers_group: JSON.stringify({ new: removers }) })).status, 200);
      assert.deepEqual((await unsubscribe("shiva", { subscriptions: [name], principals: [t.users.cordelia.email] })).body.removed, [name]);
      const bot = await addUser(t, { botOwner: t.users.hamlet });
      assert.equal((await t.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [bot.id] })).status, 200);
      assert.deepEqual((await unsubscribe("hamlet", { subscriptions: [name], principals: [bot.id] })).body.removed, [name]);
    });

    it("lets only administrators remove others by default", async () => {
      await checkPermissions(["desdemona", "iago"], async (caller) => {
        await t.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [t.users.othello.id] });
        return unsubscribe(caller, { subscriptions: [name], principals: [t.users.othello.id] });
      });
    });

    it("tells a user who leaves a private channel they no longer see it", async () => {
      const secret = (await t.as("hamlet").post("/channels/create", { name: `secret-${n}`, subscribers: [t.users.hamlet.id, t.users.othello.id], invite_only: true })).body.id;
      const from = t.published.length;
      assert.equal((await unsubscribe("othello", { subscriptions: [`secret-${n}`] })).status, 200);
      const [deleted] = eventsOf(t, "stream", "delete", from);
      assert.deepEqual([deleted.userIds, deleted.event.stream_ids], [[t.users.othello.id], [secret]]);
      const [peer] = eventsOf(t, "subscription", "peer_remove", from);
      assert.deepEqual(peer.userIds.sort((a, b) => a - b), ids(t, "desdemona", "iago", "hamlet"));
      assertError(await unsubscribe("othello", { subscriptions: [`secret-${n}`] }), `Channel 'secret-${n}' does not exist`, "STREAM_DOES_NOT_EXIST");
    });

    it("adds and deletes in one PATCH", async () => {
      const other = `other-${n}`;
      await t.as("iago").post("/channels/create", { name: other, subscribers: [] });
      const res = await t.as("hamlet").patch("/users/me/subscriptions", { add: [{ name: other, color: "#123456" }], delete: [name] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.subscribed, { [t.users.hamlet.id]: [other] });
      assert.deepEqual([res.body.removed, res.body.not_removed, res.body.already_subscribed], [[name], [], {}]);
      assert.equal((await t.as("hamlet").get("/users/me/subscriptions")).body.subscriptions.find((s: { name: string }) => s.name === other).color, "#123456");
      assertError(await t.as("hamlet").patch("/users/me/subscriptions", {}), 'Nothing to do. Specify at least one of "add" or "delete".');
      const failed = await t.as("hamlet").patch("/users/me/subscriptions", { add: [{ name: `third-${n}` }], delete: ["no-such-channel"] });
      assert.equal(failed.status, 400);
      assertError(await t.as("hamlet").get("/get_stream_id", { stream: `third-${n}` }), `Invalid channel name 'third-${n}'`, "BAD_REQUEST");
    });

    it("updates subscription settings, sending update events (muting under both names)", async () => {
      const from = t.published.length;
      const res = await properties("hamlet", [
        { stream_id: id, property: "color", value: "#f00f00" },
        { stream_id: id, property: "pin_to_top", value: true },
        { stream_id: id, property: "is_muted", value: true },
        { stream_id: id, property: "desktop_notifications", value: false },
        { stream_id: id, property: "audible_notifications", value: true },
        { stream_id: id, property: "push_notifications", value: true },
        { stream_id: id, property: "email_notifications", value: false },
        { stream_id: id, property: "wildcard_mentions_notify", value: true },
      ]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const sub = await mySub("hamlet");
      assert.deepEqual(
        [sub.color, sub.pin_to_top, sub.is_muted, sub.in_home_view, sub.desktop_notifications, sub.audible_notifications, sub.push_notifications, sub.email_notifications, sub.wildcard_mentions_notify],
        ["#f00f00", true, true, false, false, true, true, false, true],
      );
      const updates = eventsOf(t, "subscription", "update", from);
      assert.ok(updates.every((u) => u.userIds.length === 1 && u.userIds[0] === t.users.hamlet.id));
      const props = updates.map((u) => [u.event.property, u.event.value]);
      assert.deepEqual(props.slice(2, 4), [["in_home_view", false], ["is_muted", true]]);
      assert.equal(updates[0].event.stream_id, id);
      assert.equal((await properties("hamlet", [{ stream_id: id, property: "in_home_view", value: true }])).status, 200);
      assert.equal((await mySub("hamlet")).is_muted, false);
      assert.equal((await t.as("othello").patch(`/users/me/subscriptions/${id}`, { property: "pin_to_top", value: "true" })).status, 200);
      assert.equal((await mySub("othello")).pin_to_top, true);
      assert.equal((await t.as("othello").patch(`/users/me/subscriptions/${id}`, { property: "color", value: "#abc" })).status, 200);
      assert.equal((await mySub("othello")).color, "#abc");
    });

    it("refuses bad settings changes, writing none of the request", async () => {
      const secret = (await t.as("othello").post("/channels/create", { name: `private-${n}`, subscribers: [t.users.othello.id], invite_only: true })).body.id;
      const cases: Array<[unknown[], string]> = [
        [[{ stream_id: id, property: "bogus", value: true }], "Unknown subscription property: bogus"],
        [[{ stream_id: id, property: "pin_to_top", value: "yes" }], "pin_to_top is not a boolean"],
        [[{ stream_id: id, property: "color", value: "red" }], "color is not a valid hex color code"],
        [[{ stream_id: 99999, property: "pin_to_top", value: true }], "Invalid channel ID"],
        [[{ stream_id: secret, property: "pin_to_top", value: true }], "Invalid channel ID"],
        [[{ stream_id: id, property: "pin_to_top", value: true }, { stream_id: id, property: "is_muted", value: 1 }], "is_muted is not a boolean"],
      ];
      for (const [data, msg] of cases) assertError(await properties("hamlet", data), msg);
      assert.equal((await mySub("hamlet")).pin_to_top, false);
      const other = (await t.as("iago").post("/channels/create", { name: `unjoined-${n}`, subscribers: [] })).body.id;
      assertError(await properties("hamlet", [{ stream_id: other, property: "pin_to_top", value: true }]), `Not subscribed to channel ID ${other}`);
      assertError(await properties("hamlet", [{ stream_id: id, value: true }]), 'subscription_data[0] key is missing: property', "REQUEST_VARIABLE_INVALID");
    });

    it("reports whether a user is subscribed", async () => {
      assert.equal((await t.as("shiva").get(`/users/${t.users.hamlet.id}/subscriptions/${id}`)).body.is_subscribed, true);
      assert.equal((await t.as("shiva").get(`/users/${t.users.iago.id}/subscriptions/${id}`)).body.is_subscribed, false);
      assert.equal((await t.as("shiva").get(`/users/${t.users.bot.id}/subscriptions/${id}`)).body.is_subscribed, false);
      assertError(await t.as("shiva").get(`/users/99999/subscriptions/${id}`), "No such user");
      const secret = (await t.as("othello").post("/channels/create", { name: `status-${n}`, subscribers: [t.users.othello.id], invite_only: true })).body.id;
      assertError(await t.as("shiva").get(`/users/${t.users.othello.id}/subscriptions/${secret}`), "Invalid channel ID");
      assert.equal((await t.as("iago").get(`/users/${t.users.othello.id}/subscriptions/${secret}`)).body.is_subscribed, true);
    });
  });
}
