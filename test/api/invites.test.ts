/** Invitations (spec 4.9, section 7; Zulip's invites endpoints), on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { transaction } from "../../src/store/db.js";
import { updateUser } from "../../src/store/users.js";
import { addGroup, eventsOf, setRealm, setRealmGroups, systemGroupId } from "../helpers/channels.js";
import { createChannel } from "../helpers/conversations.js";
import { createMailRealm, mailsTo, readMails, type MailRealm } from "../helpers/invites.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`invitations [${kind}]`, () => {
    let t: MailRealm;
    let general: number;
    beforeEach(async () => {
      t = await createMailRealm(kind);
      general = await createChannel(t, "general", ["iago", "hamlet"]);
    });
    afterEach(() => t.close());

    const invite = (who: Parameters<MailRealm["as"]>[0], params: Record<string, unknown>) =>
      t.as(who).post("/invites", { stream_ids: [], ...params });
    const invitations = () => t.deps.store.db.selectFrom("invitations").selectAll().orderBy("id").execute();

    it("invites every address of a comma and newline separated list, once each, and mails a join link", async () => {
      t.published.length = 0;
      const res = await invite("hamlet", {
        invitee_emails: "alice@example.com, Bob <bob@example.com>\n\nALICE@example.com,\n carol@example.com ",
        stream_ids: [general],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const rows = await invitations();
      assert.deepEqual(rows.map((r) => r.email), ["alice@example.com", "bob@example.com", "carol@example.com"]);
      for (const row of rows) {
        assert.equal(row.referred_by_id, t.users.hamlet.id);
        assert.equal(row.invited_as, 400);
        assert.deepEqual(JSON.parse(row.channel_ids), [general]);
        assert.equal(row.notify_referrer_on_join, true);
        assert.equal(row.expires_at, t.clock.seconds + 14400 * 60);
        const [mail] = mailsTo(t, row.email!);
        assert.match(mail.text, new RegExp(`https://zulip\\.testserver\\.local:9991/join/${row.confirmation_key}/`));
        assert.match(mail.headers.subject, /King Hamlet invited you to join Zulip Dev/);
      }
      const changed = eventsOf(t, "invites_changed");
      assert.equal(changed.length, 1);
      assert.deepEqual(changed[0].event, { type: "invites_changed" });
      assert.deepEqual(new Set(changed[0].userIds), new Set([t.users.desdemona.id, t.users.iago.id, t.users.hamlet.id]));
    });

    it("needs at least one address", async () => {
      assertError(await invite("hamlet", { invitee_emails: "" }), "You must specify at least one email address.");
      assertError(await invite("hamlet", { invitee_emails: " ,\n " }), "You must specify at least one email address.");
      const missing = await t.as("hamlet").post("/invites", { invitee_emails: "a@example.com" });
      assertError(missing, "Missing 'stream_ids' argument", "REQUEST_VARIABLE_MISSING");
    });

    it("sends nothing when any address is invalid", async () => {
      const res = await invite("hamlet", { invitee_emails: "good@example.com, not-an-address, hamlet@zulip.test" });
      assertError(res, "Some emails did not validate, so we didn't send any invitations.", "INVITATION_FAILED");
      assert.deepEqual(res.body.errors, [
        ["not-an-address", "Invalid address.", false],
        ["hamlet@zulip.test", "Already has an account.", false],
      ]);
      assert.equal(res.body.sent_invitations, false);
      assert.equal(res.body.license_limit_reached, false);
      assert.equal(res.body.daily_limit_reached, false);
      assert.equal((await invitations()).length, 0);
      assert.equal(readMails(t).length, 0);
    });

    it("skips addresses that already have accounts and invites the rest", async () => {
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.othello.id, { is_active: false }));
      const res = await invite("iago", { invitee_emails: "HAMLET@zulip.test, othello@zulip.test, new@example.com" });
      assertError(
        res,
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        "INVITATION_FAILED",
      );
      assert.deepEqual(res.body.errors, [
        ["HAMLET@zulip.test", "Already has an account.", false],
        ["othello@zulip.test", "Account has been deactivated.", true],
      ]);
      assert.equal(res.body.sent_invitations, true);
      assert.deepEqual((await invitations()).map((r) => r.email), ["new@example.com"]);
      assert.equal(mailsTo(t, "new@example.com").length, 1);

      const none = await invite("iago", { invitee_emails: "hamlet@zulip.test" });
      assertError(none, "We weren't able to invite anyone.", "INVITATION_FAILED");
      assert.equal(none.body.sent_invitations, false);
    });

    it("accepts only the realm's domains, without +, when emails are restricted", async () => {
      assert.equal((await t.as("desdemona").post("/realm/domains", { domain: "example.com", allow_subdomains: true })).status, 200);
      await setRealm(t, { emails_restricted_to_domains: true });
      const res = await invite("iago", { invitee_emails: "a@example.com, b@dept.example.com, c@example.org, d+tag@example.com" });
      assertError(res, "Some emails did not validate, so we didn't send any invitations.", "INVITATION_FAILED");
      assert.deepEqual(res.body.errors, [
        ["c@example.org", "Outside your domain.", false],
        ["d+tag@example.com", "Email addresses containing + are not allowed.", false],
      ]);
      assert.equal((await invite("iago", { invitee_emails: "a@example.com, b@dept.example.com" })).status, 200);
    });

    it("lets callers invite only to roles at most their own", async () => {
      const as = async (who: "desdemona" | "iago" | "shiva" | "hamlet", role: number) =>
        invite(who, { invitee_emails: `r${role}-${who}@example.com`, invite_as: role });
      for (const role of [400, 600]) assert.equal((await as("hamlet", role)).status, 200);
      assertError(await as("hamlet", 300), "Must be an organization administrator");
      assertError(await as("shiva", 300), "Must be an organization administrator");
      assertError(await as("hamlet", 100), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      for (const role of [200, 300, 400, 600]) assert.equal((await as("iago", role)).status, 200);
      assertError(await as("iago", 100), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assert.equal((await as("desdemona", 100)).status, 200);
      assertError(await as("desdemona", 250), "Invalid invite_as", "REQUEST_VARIABLE_INVALID");
    });

    it("follows can_invite_users_group and never lets guests or bots invite", async () => {
      assertError(await invite("polonius", { invitee_emails: "x@example.com" }), "Not allowed for guest users");
      assertError(await invite("bot", { invitee_emails: "x@example.com" }), "This endpoint does not accept bot requests.");
      await setRealmGroups(t, { can_invite_users_group_id: "role:administrators" });
      assertError(await invite("shiva", { invitee_emails: "x@example.com" }), "Insufficient permission");
      assert.equal((await invite("iago", { invitee_emails: "x@example.com" })).status, 200);
    });

    it("checks the channels: visible, and ones the caller may add subscribers to unless they are defaults", async () => {
      const secret = await createChannel(t, "secret", ["iago"], { invite_only: true });
      assertError(await invite("hamlet", { invitee_emails: "a@example.com", stream_ids: [9999] }), "Invalid channel ID 9999. No invites were sent.");
      assertError(await invite("hamlet", { invitee_emails: "a@example.com", stream_ids: [secret] }), `Invalid channel ID ${secret}. No invites were sent.`);
      await setRealmGroups(t, { can_add_subscribers_group_id: "role:administrators" });
      assertError(
        await invite("hamlet", { invitee_emails: "a@example.com", stream_ids: [general] }),
        "You do not have permission to subscribe other users to channels.",
      );
      assert.equal((await t.as("iago").post("/default_streams", { stream_id: general })).status, 200);
      assert.equal((await invite("hamlet", { invitee_emails: "a@example.com", stream_ids: [general] })).status, 200);
      assert.equal((await invite("iago", { invitee_emails: "b@example.com", stream_ids: [secret] })).status, 200);
      assert.deepEqual((await invitations()).map((r) => r.email), ["a@example.com", "b@example.com"]);
    });

    it("checks the groups: named, and ones the caller may add members to", async () => {
      const team = await addGroup(t, "team", ["hamlet"]);
      assertError(await invite("hamlet", { invitee_emails: "a@example.com", group_ids: [team] }), "Insufficient permission");
      assertError(await invite("desdemona", { invitee_emails: "a@example.com", group_ids: [999999] }), "Invalid user group");
      const members = await systemGroupId(t, "role:members");
      assertError(await invite("desdemona", { invitee_emails: "a@example.com", group_ids: [members] }), "Insufficient permission");
      await transaction(t.deps.store, (tx) => tx.db.updateTable("user_groups").set({ can_add_members_group_id: members }).where("id", "=", team).execute());
      assert.equal((await invite("hamlet", { invitee_emails: "a@example.com", group_ids: [team] })).status, 200);
      assert.equal((await invite("desdemona", { invitee_emails: "b@example.com", group_ids: [team] })).status, 200);
      assert.deepEqual((await invitations()).map((r) => JSON.parse(r.group_ids)), [[team], [team]]);
    });

    it("takes an expiry in minutes, null for never, within bounds", async () => {
      assert.equal((await invite("hamlet", { invitee_emails: "a@example.com", invite_expires_in_minutes: 60 })).status, 200);
      assert.equal((await invite("hamlet", { invitee_emails: "b@example.com", invite_expires_in_minutes: null })).status, 200);
      assert.deepEqual((await invitations()).map((r) => r.expires_at), [t.clock.seconds + 3600, null]);
      for (const bad of [0, -5, 90 * 24 * 60 + 1]) {
        const res = await invite("hamlet", { invitee_emails: "c@example.com", invite_expires_in_minutes: bad });
        assertError(res, `invite_expires_in_minutes must be between 1 and ${90 * 24 * 60}`, "REQUEST_VARIABLE_INVALID");
      }
    });

    it("keeps a welcome text of at most 8000 code points from administrators only", async () => {
      assert.equal((await invite("iago", { invitee_emails: "a@example.com", welcome_message_custom_text: "Welcome, 🎉!" })).status, 200);
      assert.equal((await invite("hamlet", { invitee_emails: "b@example.com", welcome_message_custom_text: "Hi" })).status, 200);
      assert.deepEqual((await invitations()).map((r) => r.welcome_message_custom_text), ["Welcome, 🎉!", null]);
      assert.equal((await invite("iago", { invitee_emails: "c@example.com", welcome_message_custom_text: "🎉".repeat(8000) })).status, 200);
      const long = await invite("iago", { invitee_emails: "d@example.com", welcome_message_custom_text: "x".repeat(8001) });
      assertError(long, "welcome_message_custom_text is too long (limit: 8000 characters)", "REQUEST_VARIABLE_INVALID");
    });

    it("records notify_referrer_on_join and include_realm_default_subscriptions", async () => {
      const res = await invite("hamlet", { invitee_emails: "a@example.com", notify_referrer_on_join: false, include_realm_default_subscriptions: true });
      assert.equal(res.status, 200);
      const [row] = await invitations();
      assert.equal(row.notify_referrer_on_join, false);
      assert.equal(row.include_realm_default_subscriptions, true);
    });

    it("refuses past the realm's daily cap, sending nothing", async () => {
      await setRealm(t, { max_invites: 3 });
      assert.equal((await invite("hamlet", { invitee_emails: "a@example.com, b@example.com" })).status, 200);
      const res = await invite("hamlet", { invitee_emails: "c@example.com, d@example.com" });
      assertError(
        res,
        "To protect users, this server limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.",
        "INVITATION_FAILED",
      );
      assert.equal(res.body.daily_limit_reached, true);
      assert.equal(res.body.sent_invitations, false);
      assert.equal((await invitations()).length, 2);
      t.clock.seconds += 86400;
      assert.equal((await invite("hamlet", { invitee_emails: "c@example.com, d@example.com" })).status, 200);
    });

    it("lists pending invitations: all for administrators, their own for others", async () => {
      await invite("hamlet", { invitee_emails: "a@example.com" });
      await invite("othello", { invitee_emails: "b@example.com", invite_expires_in_minutes: 10 });
      const link = (await t.as("iago").post("/invites/multiuse", { invite_as: 600 })).body.invite_link as string;
      const all = (await t.as("iago").get("/invites")).body.invites;
      assert.equal(all.length, 3);
      const [first, , multiuse] = all;
      assert.deepEqual(Object.keys(first).sort(), ["email", "expiry_date", "id", "invited", "invited_as", "invited_by_user_id", "is_multiuse", "notify_referrer_on_join"]);
      assert.equal(first.email, "a@example.com");
      assert.equal(first.invited_by_user_id, t.users.hamlet.id);
      assert.equal(first.invited, t.clock.seconds);
      assert.equal(first.is_multiuse, false);
      assert.deepEqual(
        { ...multiuse, id: 0 },
        { id: 0, invited_by_user_id: t.users.iago.id, invited: t.clock.seconds, expiry_date: t.clock.seconds + 864000, invited_as: 600, is_multiuse: true, link_url: link },
      );
      assert.deepEqual((await t.as("hamlet").get("/invites")).body.invites.map((i: { email: string }) => i.email), ["a@example.com"]);
      t.clock.seconds += 11 * 60;
      assert.equal((await t.as("iago").get("/invites")).body.invites.length, 2);
    });

    it("revokes an email invitation for its creator or an administrator", async () => {
      await invite("hamlet", { invitee_emails: "a@example.com" });
      await invite("desdemona", { invitee_emails: "owner@example.com", invite_as: 100 });
      const [mine, owners] = await invitations();
      assertError(await t.as("othello").delete(`/invites/${mine.id}`), "Must be an organization administrator");
      assertError(await t.as("iago").delete(`/invites/${owners.id}`), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      t.published.length = 0;
      assert.equal((await t.as("hamlet").delete(`/invites/${mine.id}`)).status, 200);
      assert.equal(eventsOf(t, "invites_changed").length, 1);
      assertError(await t.as("hamlet").delete(`/invites/${mine.id}`), "No such invitation");
      assertError(await t.as("iago").delete("/invites/999999"), "No such invitation");
      assert.equal((await t.as("desdemona").delete(`/invites/${owners.id}`)).status, 200);
      assert.deepEqual((await invitations()).map((r) => r.status), [2, 2]);
    });

    it("resends an email invitation with the same link, within the daily cap", async () => {
      await invite("hamlet", { invitee_emails: "a@example.com", invite_expires_in_minutes: 60 });
      const [row] = await invitations();
      assertError(await t.as("othello").post(`/invites/${row.id}/resend`), "Must be an organization administrator");
      assert.equal((await t.as("iago").post(`/invites/${row.id}/resend`)).status, 200);
      const mails = mailsTo(t, "a@example.com");
      assert.equal(mails.length, 2);
      assert.equal(mails[0].text, mails[1].text);
      await setRealm(t, { max_invites: 2 });
      const capped = await t.as("hamlet").post(`/invites/${row.id}/resend`);
      assert.equal(capped.body.code, "INVITATION_FAILED");
      assert.equal(capped.body.daily_limit_reached, true);
      assert.equal(mailsTo(t, "a@example.com").length, 2);
      await setRealm(t, { max_invites: null });
      t.clock.seconds += 61 * 60;
      assertError(await t.as("hamlet").post(`/invites/${row.id}/resend`), "No such invitation");
    });

    it("creates reusable links for can_create_multiuse_invite_group, revoked once", async () => {
      assertError(await t.as("hamlet").post("/invites/multiuse"), "Insufficient permission");
      const res = await t.as("iago").post("/invites/multiuse", { invite_as: 400, stream_ids: [general], include_realm_default_subscriptions: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [row] = await invitations();
      assert.equal(res.body.invite_link, `https://zulip.testserver.local:9991/join/${row.confirmation_key}/`);
      assert.equal(row.is_multiuse, true);
      assert.equal(row.email, null);
      assertError(await t.as("iago").post("/invites/multiuse", { invite_as: 100 }), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("iago").delete(`/invites/${row.id}`), "No such invitation");
      assert.equal((await t.as("iago").delete(`/invites/multiuse/${row.id}`)).status, 200);
      assertError(await t.as("iago").delete(`/invites/multiuse/${row.id}`), "Invitation has already been revoked");
      await setRealmGroups(t, { create_multiuse_invite_group_id: "role:members" });
      assert.equal((await t.as("hamlet").post("/invites/multiuse")).status, 200);
      assertError(await t.as("polonius").post("/invites/multiuse"), "Not allowed for guest users");
    });

    describe("permissions per endpoint", () => {
      let n = 0;
      const fresh = () => `p${++n}@example.com`;
      const ownerInvite = async () => {
        await invite("desdemona", { invitee_emails: fresh() });
        return (await invitations()).at(-1)!.id;
      };
      const ownerLink = async () => {
        await t.as("desdemona").post("/invites/multiuse");
        return (await invitations()).at(-1)!.id;
      };

      it("POST /invites", () => checkPermissions(["desdemona", "iago", "shiva", "hamlet"], (who) => invite(who, { invitee_emails: fresh() })));
      it("GET /invites", () => checkPermissions(["desdemona", "iago", "shiva", "hamlet"], (who) => t.as(who).get("/invites")));
      it("DELETE /invites/{id}", () => checkPermissions(["desdemona", "iago"], async (who) => t.as(who).delete(`/invites/${await ownerInvite()}`)));
      it("POST /invites/{id}/resend", () => checkPermissions(["desdemona", "iago"], async (who) => t.as(who).post(`/invites/${await ownerInvite()}/resend`)));
      it("POST /invites/multiuse", () => checkPermissions(["desdemona", "iago"], (who) => t.as(who).post("/invites/multiuse")));
      it("DELETE /invites/multiuse/{id}", () => checkPermissions(["desdemona", "iago"], async (who) => t.as(who).delete(`/invites/multiuse/${await ownerLink()}`)));
    });
  });
}
