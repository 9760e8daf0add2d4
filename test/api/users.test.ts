/** Reading users (spec 4.7, spec section 2 user object) and the email-visibility rules, on every store. */
import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { CALLERS, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

/**
 * Zulip's get_fake_email_domain: the realm host "zulip.testserver.local:9991" carries a port, so no
 * address can end with it, and FAKE_EMAIL_DOMAIN (EXTERNAL_HOST without its port) is used.
 */
const DOMAIN = "testserver.local";

for (const kind of STORE_KINDS) {
  describe(`get users [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    it("lists every account with the user object fields", async () => {
      const res = await t.as("hamlet").get("/users", { client_gravatar: false });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const byId = new Map(res.body.members.map((m: { user_id: number }) => [m.user_id, m]));
      const iago = byId.get(t.users.iago.id) as Record<string, unknown>;
      assert.equal(iago.email, "iago@zulip.test");
      assert.equal(iago.delivery_email, "iago@zulip.test");
      assert.equal(iago.full_name, "Iago");
      assert.equal(iago.is_admin, true);
      assert.equal(iago.is_owner, false);
      assert.equal(iago.role, 200);
      assert.equal(iago.bot_type, null);
      // Removed at FL 363 (can_manage_billing_group replaced it).
      assert.equal("is_billing_admin" in iago, false);
      assert.match(iago.date_joined as string, /^\d{4}-\d\d-\d\dT.*\+00:00$/);
      // Gravatar is off by default: Parley serves a drawn avatar itself (issue 15).
      assert.equal(iago.avatar_url, `/user_avatars/${t.realmId}/defaults/${t.users.iago.id}.png?version=1`);
      assert.equal("is_deleted" in iago, false);
      assert.equal("profile_data" in iago, false);
      const bot = byId.get(t.users.bot.id) as Record<string, unknown>;
      assert.equal(bot.is_bot, true);
      assert.equal(bot.bot_type, 1);
      assert.equal(bot.bot_owner_id, t.users.desdemona.id);
      const owner = byId.get(t.users.desdemona.id) as Record<string, unknown>;
      assert.equal(owner.is_owner, true);
      assert.equal(owner.is_admin, true);
      assert.equal((byId.get(t.users.polonius.id) as Record<string, unknown>).is_guest, true);
    });

    it("sends avatar_url under client_gravatar (the default) when Gravatar is off, as Zulip without ENABLE_GRAVATAR", async () => {
      const res = await t.as("hamlet").get("/users");
      assert.ok(res.body.members.every((m: { user_id: number; avatar_url: unknown }) => m.avatar_url === `/user_avatars/${t.realmId}/defaults/${m.user_id}.png?version=1`));
    });

    it("includes profile_data only when asked, and never for bots", async () => {
      const res = await t.as("hamlet").get("/users", { include_custom_profile_fields: true });
      for (const m of res.body.members) assert.equal("profile_data" in m, !m.is_bot, JSON.stringify(m));
    });

    it("lists only the users asked for with user_ids (FL 384)", async () => {
      const res = await t.as("hamlet").get("/users", { user_ids: [t.users.othello.id, t.users.bot.id, 99999] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.members.map((m: { user_id: number }) => m.user_id).sort(), [t.users.othello.id, t.users.bot.id].sort());
      assert.deepEqual((await t.as("hamlet").get("/users", { user_ids: [] })).body.members, []);
      assertError(await t.as("hamlet").get("/users", { user_ids: "[1, \"two\"]" }), "user_ids[1] is not an integer", "REQUEST_VARIABLE_INVALID");
    });

    it("gets one user by id and by email", async () => {
      const byId = await t.as("othello").get(`/users/${t.users.hamlet.id}`);
      assert.equal(byId.status, 200, JSON.stringify(byId.body));
      assert.equal(byId.body.user.full_name, "King Hamlet");
      const byEmail = await t.as("othello").get("/users/hamlet@zulip.test", { include_custom_profile_fields: true });
      assert.equal(byEmail.body.user.user_id, t.users.hamlet.id);
      assert.deepEqual(byEmail.body.user.profile_data, {});
      const bot = await t.as("othello").get(`/users/${t.users.bot.id}`);
      assert.equal(bot.body.user.is_bot, true);
    });

    it("refuses unknown users alike by id and email", async () => {
      assertError(await t.as("othello").get("/users/99999"), "No such user");
      assertError(await t.as("othello").get("/users/nobody@zulip.test"), "No such user");
    });

    it("refuses ids past PostgreSQL's integer range and past 2^53 like any unknown id (found by fuzzing: a 500 on PostgreSQL)", async () => {
      for (const id of ["2147483648", "9007199254740993", "9".repeat(300)]) {
        assertError(await t.as("othello").get(`/users/${id}`), "No such user");
        assert.equal((await t.as("othello").get(`/users/${id}/presence`)).body.msg, "No such user");
        assert.equal((await t.as("iago").delete(`/users/${id.slice(0, 15)}`)).body.msg, "No such user");
      }
    });

    it("lets every kind of caller read users", async () => {
      await checkPermissions(CALLERS, (caller) => t.as(caller).get(`/users/${t.users.iago.id}`));
      await checkPermissions(CALLERS, (caller) => t.as(caller).get("/users/iago@zulip.test"));
      await checkPermissions(CALLERS, (caller) => t.as(caller).get("/users"));
      await checkPermissions(CALLERS, (caller) => t.as(caller).get("/users/me"));
    });

    it("lets only administrators with can_create_users create users, announcing them to everyone", async () => {
      t.published.length = 0;
      // The fixture grants iago can_create_users; desdemona, an owner without it, is refused as
      // Zulip's create_user_backend refuses her (FL 36).
      await checkPermissions(["iago"], (caller) =>
        t.as(caller).post("/users", { email: `made-by-${caller}@zulip.test`, password: "long enough password", full_name: `Made by ${caller}` }),
      );
      assertError(
        await t.as("desdemona").post("/users", { email: "nope@zulip.test", password: "long enough password", full_name: "Nope" }),
        "User not authorized to create users",
      );
      // Welcome Bot's account appears with its first message to the new user.
      const added = t.published.filter((e) => e.event.type === "realm_user" && e.event.op === "add" && !(e.event.person as { is_bot: boolean }).is_bot);
      assert.equal(added.length, 1);
      assert.ok(added[0].userIds.includes(t.users.polonius.id));
      assertError(
        await t.as("iago").post("/users", { email: "made-by-iago@zulip.test", password: "long enough password", full_name: "Again" }),
        "Email 'made-by-iago@zulip.test' already in use",
      );
    });
  });

  describe(`email address visibility [${kind}]`, () => {
    let t: TestRealm;
    // Each test builds its own realm: visibility changes must not leak between them. Gravatar is
    // on, so avatar_url shows whether the client may compute it from the address (client_gravatar).
    beforeEach(async () => {
      t = await createTestRealm(kind, { enableGravatar: true });
    });
    afterEach(() => t.close());

    async function setVisibility(value: number) {
      const res = await t.as("hamlet").patch("/settings", { email_address_visibility: value });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }

    async function seenBy(viewer: "desdemona" | "iago" | "shiva" | "othello" | "polonius" | "hamlet") {
      const res = await t.as(viewer).get(`/users/${t.users.hamlet.id}`, { client_gravatar: true });
      return res.body.user as { email: string; delivery_email: string | null; avatar_url: string | null };
    }

    it("hides the address behind a placeholder API email (administrators only)", async () => {
      t.published.length = 0;
      await setVisibility(3);
      const placeholder = `user${t.users.hamlet.id}@${DOMAIN}`;
      const other = await seenBy("othello");
      assert.equal(other.email, placeholder);
      assert.equal(other.delivery_email, null);
      assert.notEqual(other.avatar_url, null);
      const admin = await seenBy("iago");
      assert.equal(admin.email, placeholder);
      assert.equal(admin.delivery_email, "hamlet@zulip.test");
      assert.equal(admin.avatar_url, null);
      assert.equal((await seenBy("hamlet")).delivery_email, "hamlet@zulip.test");
      assert.equal((await seenBy("shiva")).delivery_email, null);
      const changed = t.published.find((e) => e.event.type === "realm_user" && (e.event.person as { new_email?: string }).new_email);
      assert.equal((changed?.event.person as { new_email: string }).new_email, placeholder);
      const hidden = t.published.find((e) => e.event.type === "realm_user" && (e.event.person as { delivery_email?: unknown }).delivery_email === null);
      assert.ok(hidden?.userIds.includes(t.users.othello.id));
      assert.ok(!hidden?.userIds.includes(t.users.iago.id));
    });

    it("applies members-only, moderators-only and nobody", async () => {
      await setVisibility(2);
      assert.equal((await seenBy("othello")).delivery_email, "hamlet@zulip.test");
      assert.equal((await seenBy("polonius")).delivery_email, null);
      await setVisibility(5);
      assert.equal((await seenBy("shiva")).delivery_email, "hamlet@zulip.test");
      assert.equal((await seenBy("othello")).delivery_email, null);
      await setVisibility(4);
      assert.equal((await seenBy("desdemona")).delivery_email, null);
      assert.equal((await seenBy("hamlet")).delivery_email, "hamlet@zulip.test");
      await setVisibility(1);
      const back = await seenBy("polonius");
      assert.equal(back.email, "hamlet@zulip.test");
      assert.equal(back.delivery_email, "hamlet@zulip.test");
    });

    it("finds users by placeholder, and by real address only for those who may see it", async () => {
      await setVisibility(3);
      const placeholder = `user${t.users.hamlet.id}@${DOMAIN}`;
      assert.equal((await t.as("othello").get(`/users/${placeholder}`)).body.user.user_id, t.users.hamlet.id);
      assertError(await t.as("othello").get("/users/hamlet@zulip.test"), "No such user");
      assert.equal((await t.as("iago").get("/users/hamlet@zulip.test")).body.user.user_id, t.users.hamlet.id);
    });

    it("tells a promoted or demoted viewer which addresses they now may or may not see", async () => {
      await setVisibility(3);
      t.published.length = 0;
      await t.as("iago").patch(`/users/${t.users.othello.id}`, { role: 200 });
      const learned = t.published.find((e) => e.userIds.length === 1 && e.userIds[0] === t.users.othello.id && e.event.type === "realm_user");
      assert.deepEqual(learned?.event.person, { user_id: t.users.hamlet.id, delivery_email: "hamlet@zulip.test" });
      assert.equal((await seenBy("othello")).delivery_email, "hamlet@zulip.test");
      t.published.length = 0;
      await t.as("iago").patch(`/users/${t.users.othello.id}`, { role: 400 });
      const lost = t.published.find((e) => e.userIds.length === 1 && e.userIds[0] === t.users.othello.id && e.event.type === "realm_user");
      assert.deepEqual(lost?.event.person, { user_id: t.users.hamlet.id, delivery_email: null });
    });

    it("gives new users the realm's default visibility", async () => {
      const res = await t.as("iago").patch("/realm/user_settings_defaults", { email_address_visibility: 4 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const created = await t.as("iago").post("/users", { email: "new@zulip.test", password: "long enough password", full_name: "New" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const seen = await t.as("hamlet").get(`/users/${created.body.user_id}`);
      assert.equal(seen.body.user.email, `user${created.body.user_id}@${DOMAIN}`);
      assert.equal(seen.body.user.delivery_email, null);
      assert.equal((await t.as("hamlet").get(`/users/${t.users.iago.id}`)).body.user.delivery_email, "iago@zulip.test");
    });
  });
}
