/**
 * The operator's account and organization commands (issue 18, item 6), in process through the
 * functions `manage` runs: each changes what the API then shows, fires the events the API's own
 * change would, keeps the rules (the only owner, the last account), and refuses bad input with a
 * clear message. The CLI around them (one JSON line, exit codes, --help) is manage-admin.test.ts.
 * On SQLite always, on PostgreSQL when TEST_DATABASE_URL is set.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runDeactivateRealm, runListRealms, runListUsers, runSendTestEmail } from "../../src/cli/commands/realm-admin.js";
import {
  runChangeEmail,
  runChangeRole,
  runDeactivateUser,
  runReactivateUser,
  runRotateApiKey,
  runSendPasswordReset,
  runSetPassword,
} from "../../src/cli/commands/user-admin.js";
import { createMailRealm, mailsTo, type MailRealm } from "../helpers/invites.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`operator commands [${kind}]`, () => {
    let t: MailRealm;
    const realm = "zulip";
    before(async () => {
      t = await createMailRealm(kind);
    });
    after(() => t.close());

    const eventsOf = (type: string) => t.published.filter((p) => p.event.type === type).map((p) => p.event);
    const me = async (who: "hamlet" | "desdemona" | "othello") => (await t.as(who).get("/users/me")).body;

    it("change-role changes the role with its events, and keeps the only owner an owner", async () => {
      t.published.length = 0;
      const changed = await runChangeRole(t.deps, { realm, email: "hamlet@zulip.test", role: "moderator" });
      assert.deepEqual(changed, { realm_id: t.realmId, user_id: t.users.hamlet.id, email: "hamlet@zulip.test", old_role: 400, role: 300 });
      assert.equal((await me("hamlet")).role, 300);
      assert.ok(eventsOf("realm_user").some((e) => e.op === "update" && (e.person as { role?: number }).role === 300));
      await runChangeRole(t.deps, { realm, email: "hamlet@zulip.test", role: "400" });
      await assert.rejects(runChangeRole(t.deps, { realm, email: "desdemona@zulip.test", role: "member" }), /cannot be removed from the only organization owner/);
      await assert.rejects(runChangeRole(t.deps, { realm, email: "hamlet@zulip.test", role: "member" }), /already has this role/);
      await assert.rejects(runChangeRole(t.deps, { realm, email: "hamlet@zulip.test", role: "emperor" }), /--role must be one of owner, administrator, moderator, member, guest/);
      await assert.rejects(runChangeRole(t.deps, { realm, email: "nobody@zulip.test", role: "member" }), /no user 'nobody@zulip.test' in realm 'zulip'/);
      await assert.rejects(runChangeRole(t.deps, { realm: "nowhere", email: "hamlet@zulip.test", role: "member" }), /no realm with subdomain 'nowhere'/);
    });

    it("deactivate-user and reactivate-user switch the account off and on; the only owner stays", async () => {
      t.published.length = 0;
      assert.deepEqual(await runDeactivateUser(t.deps, { realm, email: "othello@zulip.test" }), {
        realm_id: t.realmId,
        user_id: t.users.othello.id,
        email: "othello@zulip.test",
        is_active: false,
      });
      assert.equal((await t.as("othello").get("/users/me")).status, 401);
      assert.ok(eventsOf("realm_user").some((e) => (e.person as { is_active?: boolean }).is_active === false));
      await assert.rejects(runDeactivateUser(t.deps, { realm, email: "othello@zulip.test" }), /already deactivated/);
      await assert.rejects(runDeactivateUser(t.deps, { realm, email: "desdemona@zulip.test" }), /Cannot deactivate the only organization owner/);
      assert.equal((await runReactivateUser(t.deps, { realm, email: "othello@zulip.test" })).is_active, true);
      assert.equal((await me("othello")).user_id, t.users.othello.id);
      await assert.rejects(runReactivateUser(t.deps, { realm, email: "othello@zulip.test" }), /already active/);
    });

    it("set-password sets a password that logs in; a short one or a bot is refused", async () => {
      assert.equal((await runSetPassword(t.deps, { realm, email: "hamlet@zulip.test", password: "new-secret-1" })).password_set, true);
      const login = await t.as(null).post("/fetch_api_key", { username: "hamlet@zulip.test", password: "new-secret-1" });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      await assert.rejects(runSetPassword(t.deps, { realm, email: "hamlet@zulip.test", password: "abc" }), /too weak/);
      await assert.rejects(runSetPassword(t.deps, { realm, email: "default-bot@zulip.test", password: "long-enough" }), /Bots have no password/);
    });

    it("send-password-reset mails a link whose token sets a new password once", async () => {
      const sent = await runSendPasswordReset(t.deps, { realm, email: "cordelia@zulip.test" });
      assert.equal(sent.sent, true);
      const [mail] = mailsTo(t, "cordelia@zulip.test");
      const link = /\/accounts\/password\/reset\/([^/\s]+)\//.exec(mail.text);
      assert.ok(link, mail.text);
      const reset = await t.app.inject({
        method: "POST",
        url: `/accounts/password/reset/${link[1]}/`,
        headers: { host: t.host, "content-type": "application/x-www-form-urlencoded" },
        payload: "new_password=reset-secret-1",
      });
      assert.equal(reset.statusCode, 200, reset.body);
      const login = await t.as(null).post("/fetch_api_key", { username: "cordelia@zulip.test", password: "reset-secret-1" });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const again = await t.app.inject({
        method: "POST",
        url: `/accounts/password/reset/${link[1]}/`,
        headers: { host: t.host, "content-type": "application/x-www-form-urlencoded" },
        payload: "new_password=another-secret-1",
      });
      assert.equal(again.statusCode, 400, "a used link is refused");
      // Forged links are refused the same way, ids past the stores' integer range included.
      for (const forged of ["999999999999999.999999999999999.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "1.2.3.short", "not-a-token"]) {
        for (const method of ["GET", "POST"] as const) {
          const res = await t.app.inject({
            method,
            url: `/accounts/password/reset/${forged}/`,
            headers: { host: t.host, "content-type": "application/x-www-form-urlencoded" },
            ...(method === "POST" ? { payload: "new_password=forged-secret-1" } : {}),
          });
          assert.equal(res.statusCode, 400, `${method} ${forged}: ${res.body.slice(0, 200)}`);
        }
      }
      await assert.rejects(runSendPasswordReset(t.deps, { realm, email: "default-bot@zulip.test" }), /Only active human accounts/);
    });

    it("change-email changes the real address; a taken or invalid one is refused", async () => {
      const changed = await runChangeEmail(t.deps, { realm, email: "polonius@zulip.test", "new-email": "polo@zulip.test" });
      assert.deepEqual([changed.old_email, changed.email], ["polonius@zulip.test", "polo@zulip.test"]);
      await assert.rejects(runChangeEmail(t.deps, { realm, email: "polo@zulip.test", "new-email": "hamlet@zulip.test" }), /already in use/);
      await assert.rejects(runChangeEmail(t.deps, { realm, email: "polo@zulip.test", "new-email": "not an address" }), /Invalid email address/);
      await runChangeEmail(t.deps, { realm, email: "polo@zulip.test", "new-email": "polonius@zulip.test" });
    });

    it("rotate-api-key replaces the key: the new one works, the old one stops", async () => {
      const rotated = await runRotateApiKey(t.deps, { realm, email: "hamlet@zulip.test" });
      assert.match(rotated.api_key, /^[A-Za-z0-9]{32}$/);
      assert.equal((await t.as("hamlet").get("/users/me")).status, 401);
      const fresh = await t.as({ ...t.users.hamlet, apiKey: rotated.api_key }).get("/users/me");
      assert.equal(fresh.status, 200);
      t.users.hamlet.apiKey = rotated.api_key;
    });

    it("list-realms and list-users list what exists, in bounded pages", async () => {
      const { realms } = await runListRealms(t.deps.store, t.deps.config);
      const ours = realms.find((r) => r.realm_id === t.realmId);
      assert.deepEqual([ours?.subdomain, ours?.deactivated, (ours?.active_humans ?? 0) > 5], [realm, false, true]);
      const first = await runListUsers(t.deps.store, { realm, limit: "2" });
      assert.equal(first.users.length, 2);
      assert.equal(first.users[0].email, "desdemona@zulip.test");
      const rest = await runListUsers(t.deps.store, { realm, "after-id": String(first.next_after_id) });
      assert.equal(rest.next_after_id, null);
      assert.ok(rest.users.some((u) => u.is_bot && u.email === "default-bot@zulip.test"));
      await assert.rejects(runListUsers(t.deps.store, { realm, limit: "100001" }), /--limit must be an integer from 0 to 10000/);
    });

    it("send-test-email sends through the configured mail", async () => {
      assert.deepEqual(await runSendTestEmail(t.deps.config, { to: "ops@example.test" }, new Date(0)), {
        sent_to: "ops@example.test",
        from: t.deps.config.mailFrom,
        transport: "file",
      });
      assert.equal(mailsTo(t, "ops@example.test").length, 1);
      await assert.rejects(runSendTestEmail(t.deps.config, { to: "nope" }, new Date(0)), /Invalid email address/);
    });

    it("deactivate-realm refuses every key of the organization and tells its clients", async () => {
      t.published.length = 0;
      assert.deepEqual(await runDeactivateRealm(t.deps, { realm }), { realm_id: t.realmId, subdomain: realm, deactivated: true });
      const refused = await t.as("desdemona").get("/users/me");
      assert.equal(refused.status, 401);
      assert.match(refused.body.msg, /organization has been deactivated/);
      assert.deepEqual(eventsOf("realm"), [{ type: "realm", op: "deactivated", realm_id: t.realmId }]);
      await assert.rejects(runDeactivateRealm(t.deps, { realm }), /already deactivated/);
    });
  });
}
