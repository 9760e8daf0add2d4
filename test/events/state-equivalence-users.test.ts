/**
 * State equivalence for accounts (issue 5): creating users and bots, changing names and roles,
 * deactivating and reactivating, email visibility. realm_user events reach everyone, with
 * delivery_email only for those allowed to see it; realm_bot events reach only the bot's owner
 * and the administrators; system-group membership follows with user_group events.
 */
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
