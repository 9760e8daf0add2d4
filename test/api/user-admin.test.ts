/** Administering users (spec 4.11), deactivation and reactivation, on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { getDirectGroupIds, getSystemGroups } from "../../src/store/groups.js";
import { updateUser } from "../../src/store/users.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { addUser, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const ADMINS: UserName[] = ["desdemona", "iago"];

for (const kind of STORE_KINDS) {
  describe(`update, deactivate and reactivate users [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    async function roleGroupsOf(userId: number): Promise<string[]> {
      const tx = readTx(t.deps.store);
      const names = new Map((await getSystemGroups(tx, t.realmId)).map((g) => [g.id, g.name as string]));
      return (await getDirectGroupIds(tx, userId)).map((id) => names.get(id)).filter((n): n is string => n !== undefined).sort();
    }

    it("changes full name and role, moving the user between role groups", async () => {
      assert.deepEqual(await roleGroupsOf(t.users.hamlet.id), ["role:fullmembers", "role:members"]);
      t.published.length = 0;
      const res = await t.as("iago").patch(`/users/${t.users.hamlet.id}`, { full_name: "Prince Hamlet", role: 300 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const user = (await t.as("othello").get(`/users/${t.users.hamlet.id}`)).body.user;
      assert.equal(user.full_name, "Prince Hamlet");
      assert.equal(user.role, 300);
      assert.deepEqual(await roleGroupsOf(t.users.hamlet.id), ["role:moderators"]);
      const persons = t.published.filter((e) => e.event.type === "realm_user").map((e) => e.event.person);
      assert.ok(persons.some((p) => JSON.stringify(p) === JSON.stringify({ user_id: t.users.hamlet.id, role: 300 })));
      assert.ok(persons.some((p) => JSON.stringify(p) === JSON.stringify({ user_id: t.users.hamlet.id, full_name: "Prince Hamlet" })));
      const groupOps = t.published.filter((e) => e.event.type === "user_group").map((e) => e.event.op).sort();
      assert.deepEqual(groupOps, ["add_members", "remove_members", "remove_members"]);
      await t.as("iago").patch(`/users/${t.users.hamlet.id}`, { role: 600 });
      assert.deepEqual(await roleGroupsOf(t.users.hamlet.id), ["role:everyone"]);
      await t.as("iago").patch(`/users/${t.users.hamlet.id}`, { role: 400 });
      assert.deepEqual(await roleGroupsOf(t.users.hamlet.id), ["role:fullmembers", "role:members"]);
    });

    it("updates by email address too", async () => {
      const res = await t.as("iago").patch("/users/othello@zulip.test", { full_name: "Othello" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await t.as("iago").get(`/users/${t.users.othello.id}`)).body.user.full_name, "Othello");
    });

    it("keeps the owner role for owners to give and take", async () => {
      assertError(await t.as("iago").patch(`/users/${t.users.hamlet.id}`, { role: 100 }), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("iago").patch(`/users/${t.users.desdemona.id}`, { role: 200 }), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assertError(
        await t.as("desdemona").patch(`/users/${t.users.desdemona.id}`, { role: 200 }),
        "The owner permission cannot be removed from the only organization owner.",
      );
      assert.equal((await t.as("desdemona").patch(`/users/${t.users.hamlet.id}`, { role: 100 })).status, 200);
      assert.equal((await t.as("hamlet").patch(`/users/${t.users.desdemona.id}`, { role: 200 })).status, 200);
      assert.equal((await t.as("hamlet").get(`/users/${t.users.desdemona.id}`)).body.user.is_owner, false);
    });

    it("refuses bad updates without changing anything", async () => {
      assertError(await t.as("iago").patch(`/users/${t.users.hamlet.id}`, { role: 500, full_name: "X" }), "Invalid role");
      assertError(await t.as("iago").patch(`/users/${t.users.hamlet.id}`, { full_name: "  " + "n".repeat(101) }), "Name too long!");
      assertError(await t.as("iago").patch("/users/99999", { full_name: "Nobody" }), "No such user");
      assertError(
        await t.as("iago").patch(`/users/${t.users.hamlet.id}`, { role: 300, profile_data: [{ id: 999, value: "x" }] }),
        "Field id 999 not found.",
      );
      assert.equal((await t.as("iago").get(`/users/${t.users.hamlet.id}`)).body.user.role, 400);
    });

    it("changes a real address only for owners with can_change_user_emails", async () => {
      assertError(await t.as("iago").patch(`/users/${t.users.hamlet.id}`, { new_email: "h@zulip.test" }), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("desdemona").patch(`/users/${t.users.hamlet.id}`, { new_email: "h@zulip.test" }), "User not authorized to change user emails");
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.desdemona.id, { can_change_user_emails: true }));
      assertError(await t.as("desdemona").patch(`/users/${t.users.hamlet.id}`, { new_email: "othello@zulip.test" }), "Email 'othello@zulip.test' already in use");
      assertError(await t.as("desdemona").patch(`/users/${t.users.hamlet.id}`, { new_email: "not an email" }), "Invalid email address 'not an email'");
      const res = await t.as("desdemona").patch(`/users/${t.users.hamlet.id}`, { new_email: "h@zulip.test" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const user = (await t.as("othello").get(`/users/${t.users.hamlet.id}`)).body.user;
      assert.equal(user.email, "h@zulip.test");
      assert.equal(user.delivery_email, "h@zulip.test");
    });

    it("lets only administrators update users", async () => {
      await checkPermissions(ADMINS, (caller) => t.as(caller).patch(`/users/${t.users.othello.id}`, { full_name: `Othello ${caller}` }));
    });

    it("deactivates a user and their bots, and reactivates them", async () => {
      const bot = await addUser(t, { botOwner: t.users.hamlet });
      t.published.length = 0;
      const res = await t.as("iago").delete(`/users/${t.users.hamlet.id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await t.as("iago").get(`/users/${t.users.hamlet.id}`)).body.user.is_active, false);
      assert.equal((await t.as("iago").get(`/users/${bot.id}`)).body.user.is_active, false);
      assert.equal((await t.as("hamlet").get("/users/me")).status, 401);
      const updates = t.published.filter((e) => e.event.type === "realm_user").map((e) => e.event.person as Record<string, unknown>);
      assert.ok(updates.some((p) => p.user_id === t.users.hamlet.id && p.is_active === false));
      assert.ok(updates.some((p) => p.user_id === bot.id && p.is_active === false));
      assertError(await t.as("iago").delete(`/users/${t.users.hamlet.id}`), "User is deactivated");
      assert.equal((await t.as("iago").post(`/users/${t.users.hamlet.id}/reactivate`)).status, 200);
      assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
      assertError(await t.as("iago").post(`/users/${t.users.hamlet.id}/reactivate`), "User is already active.");
      assert.equal((await t.as("iago").post(`/users/${bot.id}/reactivate`)).status, 200);
    });

    it("refuses to deactivate the last owner, owners by non-owners, and bots", async () => {
      const last = await t.as("desdemona").delete(`/users/${t.users.desdemona.id}`);
      assertError(last, "Cannot deactivate the only organization owner.", "CANNOT_DEACTIVATE_LAST_USER");
      assert.equal(last.body.is_last_owner, true);
      assert.equal(last.body.entity, "organization owner");
      await t.as("desdemona").patch(`/users/${t.users.iago.id}`, { role: 100 });
      assertError(await t.as("shiva").delete(`/users/${t.users.iago.id}`), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      await t.as("desdemona").patch(`/users/${t.users.hamlet.id}`, { role: 200 });
      assertError(await t.as("hamlet").delete(`/users/${t.users.iago.id}`), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("iago").delete(`/users/${t.users.bot.id}`), "No such user");
      assertError(await t.as("iago").delete("/users/99999"), "No such user");
      assert.equal((await t.as("iago").delete(`/users/${t.users.desdemona.id}`)).status, 200);
    });

    it("lets only administrators deactivate and reactivate", async () => {
      const targets = await Promise.all([1, 2, 3, 4, 5, 6].map(() => addUser(t)));
      let i = 0;
      await checkPermissions(ADMINS, (caller) => t.as(caller).delete(`/users/${targets[i++].id}`));
      i = 0;
      await checkPermissions(ADMINS, (caller) => t.as(caller).post(`/users/${targets[i++].id}/reactivate`));
    });

    it("deactivates your own account unless you are the last owner", async () => {
      assert.equal((await t.as("othello").delete("/users/me")).status, 200);
      assert.equal((await t.as("othello").get("/users/me")).status, 401);
      const res = await t.as("desdemona").delete("/users/me");
      assertError(res, "Cannot deactivate the only organization owner.", "CANNOT_DEACTIVATE_LAST_USER");
      assert.equal(res.body.is_last_owner, true);
      await checkPermissions(["iago", "shiva", "hamlet", "polonius", "bot"], (caller) => t.as(caller).delete("/users/me"));
    });
  });
}
