/**
 * State equivalence for accounts (issue 5): creating users and bots, changing names and roles,
 * deactivating and reactivating, email visibility. realm_user events reach everyone, with
 * delivery_email only for those allowed to see it; realm_bot events reach only the bot's owner
 * and the administrators; system-group membership follows with user_group events.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { ensureNotificationBot, verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: users and bots [${kind}]`, () => {
    let t: TestRealm;
    let counter = 0;
    before(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
      await ensureNotificationBot(t);
    });
    after(() => t.close());

    async function newUser(): Promise<number> {
      const res = await t.as("iago").post("/users", { email: `user${++counter}@zulip.test`, password: "long enough password", full_name: `User ${counter}` });
      return res.body.user_id;
    }

    it("creating a user: everyone learns of them and of their system-group membership", async () => {
      const create = () => t.as("iago").post("/users", { email: "newcomer@zulip.test", password: "long enough password", full_name: "Newcomer" });
      await verifyAction(t, ["hamlet", "iago", "polonius"], create, { expect: { hamlet: ["realm_user/add", "user_group", "user_group"] } });
    });

    it("renaming a user, and a user renaming themselves", async () => {
      const id = await newUser();
      await verifyAction(t, ["hamlet", "iago"], () => t.as("iago").patch(`/users/${id}`, { full_name: "Renamed" }), { expect: { hamlet: ["realm_user/update"] } });
      await verifyAction(t, ["hamlet", "othello"], () => t.as("hamlet").patch("/settings", { full_name: "Prince Hamlet" }));
    });

    it("changing a role moves the user between system groups; the user's own flags follow", async () => {
      const id = await newUser();
      await verifyAction(t, ["hamlet", "iago"], () => t.as("iago").patch(`/users/${id}`, { role: 300 }));
      await verifyAction(t, ["hamlet", "shiva"], () => t.as("desdemona").patch(`/users/${t.users.shiva.id}`, { role: 200 }));
      await verifyAction(t, ["hamlet", "shiva"], () => t.as("desdemona").patch(`/users/${t.users.shiva.id}`, { role: 300 }));
    });

    it("deactivating a user drops them from subscriber lists and groups; reactivating restores them", async () => {
      const id = await newUser();
      await t.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "Verona" }], principals: [id] });
      await verifyAction(t, ["hamlet", "iago", "polonius"], () => t.as("iago").delete(`/users/${id}`));
      await verifyAction(t, ["hamlet", "iago", "polonius"], () => t.as("iago").post(`/users/${id}/reactivate`));
    });

    it("a deactivated user leaves the anonymous group-setting values naming them, and comes back (FL 303)", async () => {
      const id = await newUser();
      const anonymous = { direct_members: [id, t.users.hamlet.id], direct_subgroups: [] };
      const ok = async (res: Promise<{ status: number; body: Record<string, unknown> }>) => assert.equal((await res).status, 200, JSON.stringify((await res).body));
      await ok(t.as("desdemona").patch("/realm", { can_add_custom_emoji_group: { new: anonymous } }));
      const group = (await t.as("hamlet").post("/user_groups/create", { name: "Settings", description: "", members: [] })).body.group_id;
      await ok(t.as("hamlet").patch(`/user_groups/${group}`, { can_join_group: { new: anonymous } }));
      const channelId = await createChannel(t, "Settings room", ["hamlet", "iago"]);
      await ok(t.as("iago").patch(`/streams/${channelId}`, { can_remove_subscribers_group: { new: anonymous } }));
      const values = async () => {
        const state = (await t.as("hamlet").post("/register", { event_types: ["realm", "realm_user_groups", "stream"] })).body;
        const listed = [
          state.realm_can_add_custom_emoji_group,
          state.realm_user_groups.find((g: { id: number }) => g.id === group).can_join_group,
          state.streams.find((c: { stream_id: number }) => c.stream_id === channelId).can_remove_subscribers_group,
        ];
        return listed.map((v: { direct_members: number[] }) => [...v.direct_members].sort((a, b) => a - b));
      };
      const both = [t.users.hamlet.id, id].sort((a, b) => a - b);
      assert.deepEqual(await values(), [both, both, both]);
      // Everyone hears each setting again: realm update_dict, user_group update, stream update (to those who see the channel).
      await verifyAction(t, ["hamlet", "iago", "polonius"], () => t.as("iago").delete(`/users/${id}`));
      assert.deepEqual(await values(), [[t.users.hamlet.id], [t.users.hamlet.id], [t.users.hamlet.id]]);
      const groups = (await t.as("hamlet").get("/user_groups")).body.user_groups;
      assert.deepEqual(groups.find((g: { id: number }) => g.id === group).can_join_group.direct_members, [t.users.hamlet.id]);
      await verifyAction(t, ["hamlet", "iago", "polonius"], () => t.as("iago").post(`/users/${id}/reactivate`));
      assert.deepEqual(await values(), [both, both, both]);
    });

    it("bots: only the owner and administrators hear realm_bot events", async () => {
      const create = () => t.as("hamlet").post("/bots", { full_name: "Helper", short_name: "helper" });
      const events = await verifyAction(t, ["hamlet", "iago", "othello"], create, {
        expect: { hamlet: ["realm_user/add", "realm_bot/add", "user_group", "user_group"], othello: ["realm_user/add", "user_group", "user_group"] },
      });
      const botId = events.hamlet[0].person.user_id as number;
      await verifyAction(t, ["hamlet", "iago", "othello"], () => t.as("hamlet").patch(`/bots/${botId}`, { full_name: "Helper 2" }), {
        expect: { hamlet: ["realm_user/update", "realm_bot/update"], othello: ["realm_user/update"] },
      });
      await verifyAction(t, ["hamlet", "iago", "othello"], () => t.as("iago").patch(`/bots/${botId}`, { bot_owner_id: t.users.othello.id }));
      await verifyAction(t, ["hamlet", "iago", "othello"], () => t.as("othello").delete(`/bots/${botId}`));
      await verifyAction(t, ["hamlet", "iago", "othello"], () => t.as("iago").post(`/users/${botId}/reactivate`));
    });

    it("email visibility: only viewers allowed to see the address get delivery_email", async () => {
      const hide = (value: number) => () => t.as("othello").patch("/settings", { email_address_visibility: value });
      await verifyAction(t, ["othello", "hamlet", "iago", "polonius"], hide(3));
      await verifyAction(t, ["othello", "hamlet", "iago", "polonius"], hide(2));
      await verifyAction(t, ["othello", "hamlet", "polonius"], hide(1));
    });

    it("a user deactivating their own account", async () => {
      const id = await newUser();
      const me = { id, email: `user${counter}@zulip.test`, apiKey: "", fullName: "", role: 400 };
      const login = await t.as(null).post("/fetch_api_key", { username: me.email, password: "long enough password" });
      me.apiKey = login.body.api_key;
      await verifyAction(t, ["hamlet", "iago"], () => t.as(me).delete("/users/me"));
    });
  });
}
