/**
 * State equivalence under can_access_all_users_group (FL 228, 232; issue 16, F6): a limited
 * guest's clients hear of users as they gain or lose access to them — realm_user add when they
 * start sharing a channel or a direct message, remove when the last shared channel goes — and
 * nothing of users they may not access; with and without user_list_incomplete, whose clients keep
 * no "Unknown user" placeholders. A member beside them hears of everyone, as always.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type TestUser, type UserName } from "../helpers/fixtures.js";
import { addUser } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { setAccessAllUsersGroup, setUpLimitedGuest, type LimitedGuestWorld } from "../helpers/user-access.js";
import { MODERN_CAPABILITIES, REGISTER_PARAMS, ensureNotificationBot, verifyAction } from "./verify-action.js";
import type { Event } from "./event-state.js";

const INCOMPLETE = { client_capabilities: { ...MODERN_CAPABILITIES, user_list_incomplete: true } };
const DOMAIN = "testserver.local";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: limited guests' access to users [${kind}]`, () => {
    let t: TestRealm;
    let world: LimitedGuestWorld;
    before(async () => {
      t = await createTestRealm(kind);
      await ensureNotificationBot(t);
      world = await setUpLimitedGuest(t);
    });
    after(() => t.close());

    type Who = UserName | TestUser;
    const idOf = (who: Who) => (typeof who === "string" ? t.users[who].id : who.id);
    const subscribe = (who: Who[], channel: string) => () =>
      t.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: channel }], principals: who.map(idOf) });
    const unsubscribe = (who: Who[], channel: string) => () =>
      t.as("iago").delete("/users/me/subscriptions", { subscriptions: [channel], principals: who.map(idOf) });
    /** A new member the guest shares nothing with (each test makes its own, so tests stay independent). */
    const stranger = () => addUser(t);
    const dm = (from: Who, to: Who[]) => () => t.as(from).post("/messages", { type: "direct", to: to.map(idOf), content: "hi" });
    const people = (events: Event[], op: string) => events.filter((e) => e.type === "realm_user" && e.op === op).map((e) => e.person);

    it("a user joining the guest's channel is added for the guest, and removed when they leave", async () => {
      const member = await stranger();
      for (const register of [REGISTER_PARAMS, INCOMPLETE]) {
        const joined = await verifyAction(t, ["polonius", "hamlet"], subscribe([member], "guest-public"), {
          register,
          expect: { polonius: ["realm_user/add", "subscription/peer_add"], hamlet: ["subscription/peer_add"] },
        });
        assert.equal(people(joined.polonius, "add")[0].full_name, member.fullName);
        const left = await verifyAction(t, ["polonius", "hamlet"], unsubscribe([member], "guest-public"), {
          register,
          expect: { polonius: ["subscription/peer_remove", "realm_user/remove"], hamlet: ["subscription/peer_remove"] },
        });
        assert.deepEqual(people(left.polonius, "remove"), [{ user_id: member.id, full_name: "Unknown user" }]);
      }
    });

    it("no add for a user already shared elsewhere, nor for bots, nor when leaving one of two shared channels", async () => {
      await verifyAction(t, ["polonius"], subscribe(["iago"], "guest-public"), { expect: { polonius: ["subscription/peer_add"] } });
      await verifyAction(t, ["polonius"], unsubscribe(["iago"], "guest-public"), { expect: { polonius: ["subscription/peer_remove"] } });
      await verifyAction(t, ["polonius"], subscribe(["bot"], "guest-public"), { expect: { polonius: ["subscription/peer_add"] } });
      await verifyAction(t, ["polonius"], unsubscribe(["bot"], "guest-public"), { expect: { polonius: ["subscription/peer_remove"] } });
    });

    it("a guest joining a channel gains its subscribers, and loses them on leaving", async () => {
      const [a, b] = [await stranger(), await stranger()];
      const create = await t.as("iago").post("/channels/create", { name: "stranger-room", subscribers: [a.id, b.id] });
      assert.equal(create.status, 200, JSON.stringify(create.body));
      const events = await verifyAction(t, ["polonius", "hamlet"], subscribe(["polonius"], "stranger-room"));
      assert.deepEqual(people(events.polonius, "add").map((p) => p.user_id).sort(), [a.id, b.id].sort());
      const gone = await verifyAction(t, ["polonius", "hamlet"], unsubscribe(["polonius"], "stranger-room"), { register: INCOMPLETE });
      assert.deepEqual(people(gone.polonius, "remove").map((p) => p.user_id).sort(), [a.id, b.id].sort());
      assert.deepEqual(people(gone.hamlet, "remove"), []);
    });

    it("a direct message from an inaccessible user adds them first; a bot's adds nobody", async () => {
      const [writer, other] = [await stranger(), await stranger()];
      const events = await verifyAction(t, ["polonius"], dm(writer, ["polonius"]), { expect: { polonius: ["realm_user/add", "message"] } });
      assert.equal(people(events.polonius, "add")[0].user_id, writer.id);
      await verifyAction(t, ["polonius"], dm("bot", ["polonius"]), { expect: { polonius: ["message"] } });
      // In a group conversation the guest meets every participant it did not know.
      const group = await verifyAction(t, ["polonius"], dm("hamlet", ["polonius", other]), { expect: { polonius: ["realm_user/add", "message"] } });
      assert.equal(people(group.polonius, "add")[0].user_id, other.id);
    });

    it("a new user reaches the guest as \"Unknown user\", or not at all with user_list_incomplete", async () => {
      let n = 0;
      const create = () => t.as("iago").post("/users", { email: `access${++n}@zulip.test`, password: "long enough password", full_name: `Access ${n}` });
      const plain = await verifyAction(t, ["polonius", "hamlet"], create);
      const placeholder = people(plain.polonius, "add");
      assert.equal(placeholder.length, 1);
      assert.equal(placeholder[0].full_name, "Unknown user");
      assert.equal(placeholder[0].email, `user${placeholder[0].user_id}@${DOMAIN}`);
      assert.equal(people(plain.hamlet, "add")[0].full_name, "Access 1");
      const incomplete = await verifyAction(t, ["polonius"], create, { register: INCOMPLETE });
      assert.deepEqual(people(incomplete.polonius, "add"), []);
    });

    it("updates about an inaccessible user reach members only: names, statuses", async () => {
      const member = await stranger();
      await verifyAction(t, ["polonius", "hamlet"], () => t.as(member).patch("/settings", { full_name: "Cordelia Renamed" }), {
        expect: { polonius: [], hamlet: ["realm_user/update"] },
      });
      await verifyAction(t, ["polonius", "hamlet"], () => t.as(member).post("/users/me/status", { status_text: "away" }), {
        expect: { polonius: [], hamlet: ["user_status"] },
      });
      await verifyAction(t, ["polonius", "hamlet"], () => t.as("iago").patch(`/users/${t.users.hamlet.id}`, { full_name: "Prince Hamlet" }), {
        expect: { polonius: ["realm_user/update"], hamlet: ["realm_user/update"] },
      });
    });

    it("deactivating a user the guest knew only from a channel removes them; one from a DM stays known", async () => {
      const deactivate = (who: TestUser) => () => t.as("iago").delete(`/users/${who.id}`);
      const reactivate = (who: TestUser) => () => t.as("iago").post(`/users/${who.id}/reactivate`);
      const peer = await stranger();
      assert.equal((await subscribe([peer], "guest-public")()).status, 200);
      const gone = await verifyAction(t, ["polonius", "iago"], deactivate(peer));
      assert.deepEqual(people(gone.polonius, "remove"), [{ user_id: peer.id, full_name: "Unknown user" }]);
      assert.deepEqual(people(gone.polonius, "update"), []);
      assert.equal(people(gone.iago, "update")[0].is_active, false);
      const back = await verifyAction(t, ["polonius", "iago"], reactivate(peer));
      assert.equal(people(back.polonius, "add")[0].user_id, peer.id);
      const partner = await stranger();
      assert.equal((await dm(partner, ["polonius"])()).status, 200);
      const inactive = await verifyAction(t, ["polonius"], deactivate(partner));
      assert.deepEqual(people(inactive.polonius, "update"), [{ user_id: partner.id, is_active: false }]);
      assert.deepEqual(people(inactive.polonius, "remove"), []);
      await verifyAction(t, ["polonius"], reactivate(partner));
    });

    it("a message or reaction from a sender outside the channel shows them as \"Unknown user\" to the guest", async () => {
      const outsider = await stranger();
      const sent = await verifyAction(t, ["polonius", "hamlet"], () =>
        t.as(outsider).post("/messages", { type: "stream", to: "guest-public", topic: "outside", content: "from outside" }),
      );
      const [forGuest] = sent.polonius.filter((e) => e.type === "message");
      const [forMember] = sent.hamlet.filter((e) => e.type === "message");
      assert.equal(forGuest.message.sender_full_name, "Unknown user");
      assert.equal(forGuest.message.sender_email, `user${outsider.id}@${DOMAIN}`);
      assert.equal(forGuest.message.avatar_url, "/static/images/unknown-user-avatar.png");
      assert.equal(forMember.message.sender_full_name, outsider.fullName);
      const reacted = await verifyAction(t, ["polonius", "hamlet"], () =>
        t.as(outsider).post(`/messages/${world.othelloMessageId}/reactions`, { emoji_name: "smile" }),
      );
      // Reaction events name the reactor by id only since FL 484.
      assert.equal(reacted.polonius[0].user_id, outsider.id);
      assert.equal("user" in reacted.polonius[0], false);
      const typing = await verifyAction(t, ["polonius", "hamlet"], () =>
        t.as(outsider).post("/typing", { type: "channel", op: "start", stream_id: world.publicId, topic: "outside" }),
      );
      assert.deepEqual(typing.polonius[0].sender, { user_id: outsider.id, email: `user${outsider.id}@${DOMAIN}` });
      assert.equal(typing.hamlet[0].sender.email, outsider.email);
    });

    it("once the setting is role:everyone, nothing of this is sent", async () => {
      const member = await stranger();
      await setAccessAllUsersGroup(t, "role:everyone");
      try {
        await verifyAction(t, ["polonius"], subscribe([member], "guest-public"), { expect: { polonius: ["subscription/peer_add"] } });
        await verifyAction(t, ["polonius"], unsubscribe([member], "guest-public"), { expect: { polonius: ["subscription/peer_remove"] } });
        await verifyAction(t, ["polonius"], () => t.as(member).patch("/settings", { full_name: "Cordelia" }), { expect: { polonius: ["realm_user/update"] } });
      } finally {
        await setAccessAllUsersGroup(t, "role:members");
      }
    });
  });
}
