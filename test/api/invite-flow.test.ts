/**
 * The invitation flow end to end (issue 6, item 8): invite → .eml written → join form → account
 * created → the new user logs in with fetch_api_key and is in the invited channels and groups.
 * Dead links (used, expired, revoked, unknown, other realm) are refused with an HTML page.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { getDirectGroupIds } from "../../src/store/groups.js";
import { addGroup, eventsOf, setRealmSetting, systemGroupId } from "../helpers/channels.js";
import { createChannel } from "../helpers/conversations.js";
import { createMailRealm, getPage, joinPath, mailsTo, postForm, type MailRealm } from "../helpers/invites.js";
import { STORE_KINDS } from "../helpers/stores.js";

const NEW_PASSWORD = "a new secret password";

for (const kind of STORE_KINDS) {
  describe(`joining by invitation [${kind}]`, () => {
    let t: MailRealm;
    beforeEach(async () => {
      t = await createMailRealm(kind);
    });
    afterEach(() => t.close());

    async function emailInvite(params: Record<string, unknown> = {}, email = "newbie@example.com"): Promise<string> {
      const res = await t.as("iago").post("/invites", { invitee_emails: email, stream_ids: [], ...params });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return joinPath(mailsTo(t, email).at(-1)!);
    }

    const join = (path: string, form: Record<string, string> = {}) => postForm(t, path, { full_name: "New Person", password: NEW_PASSWORD, ...form });

    /** Contents of the messages delivered to a user since the last reset of t.published. */
    const messagesTo = (userId: number) =>
      eventsOf(t, "message").filter((e) => e.userIds.includes(userId)).map((e) => (e.event.message as { content: string }).content);

    const login = (username: string, password = NEW_PASSWORD) => t.as(null).post("/fetch_api_key", { username, password });

    it("creates the invited account with its role, channels, defaults and groups, and tells the inviter", async () => {
      const lounge = await createChannel(t, "lounge", ["iago"]);
      const secret = await createChannel(t, "secret", ["iago"], { invite_only: true });
      const welcome = await createChannel(t, "welcome", ["iago"]);
      assert.equal((await t.as("iago").post("/default_streams", { stream_id: welcome })).status, 200);
      const team = await addGroup(t, "team", ["iago"]);
      const admins = await systemGroupId(t, "role:administrators");
      await transaction(t.deps.store, (tx) => tx.db.updateTable("user_groups").set({ can_add_members_group_id: admins }).where("id", "=", team).execute());
      const path = await emailInvite({ stream_ids: [lounge, secret], group_ids: [team], include_realm_default_subscriptions: true, invite_as: 300 });

      const form = await getPage(t, path);
      assert.equal(form.status, 200);
      assert.match(String(form.headers["content-type"]), /^text\/html/);
      assert.equal(form.headers["cache-control"], "no-store");
      assert.equal(form.headers["referrer-policy"], "no-referrer");
      assert.match(form.body, /<label for="full_name">/);
      assert.match(form.body, /value="newbie@example\.com" readonly/);
      assert.match(form.body, /Iago invited you to join <strong>Zulip Dev<\/strong>/);

      t.published.length = 0;
      const done = await join(path, { email: "someone-else@example.com" });
      assert.equal(done.status, 200, done.body);
      assert.match(done.body, /Welcome, New Person!/);
      assert.match(done.body, /newbie@example\.com/);

      const key = await login("newbie@example.com");
      assert.equal(key.status, 200, JSON.stringify(key.body));
      const me = { id: key.body.user_id as number, email: "newbie@example.com", apiKey: key.body.api_key as string, fullName: "New Person", role: 300 };
      const profile = await t.as(me).get("/users/me");
      assert.equal(profile.body.role, 300);
      assert.equal(profile.body.full_name, "New Person");
      const subs = await t.as(me).get("/users/me/subscriptions");
      assert.deepEqual(subs.body.subscriptions.map((s: { stream_id: number }) => s.stream_id).sort(), [lounge, secret, welcome].sort());
      assert.ok((await getDirectGroupIds(readTx(t.deps.store), me.id)).includes(team));

      const added = eventsOf(t, "user_group", "add_members").find((e) => e.event.group_id === team);
      assert.deepEqual(added?.event.user_ids, [me.id]);
      assert.ok(eventsOf(t, "realm_user", "add").some((e) => (e.event.person as { user_id: number }).user_id === me.id));
      const notices = messagesTo(t.users.iago.id);
      assert.equal(notices.length, 1);
      assert.match(notices[0], new RegExp(`data-user-id="${me.id}">New Person</span> accepted your invitation to join Zulip Dev!`));
      assert.ok(eventsOf(t, "invites_changed").some((e) => e.userIds.includes(t.users.iago.id)));
      assert.deepEqual((await t.as("iago").get("/invites")).body.invites, []);
    });

    it("refuses a link once it has been used", async () => {
      const path = await emailInvite();
      assert.equal((await join(path)).status, 200);
      const again = await getPage(t, path);
      assert.equal(again.status, 410);
      assert.match(again.body, /This invitation has already been used\./);
      const post = await join(path, { full_name: "Second Try" });
      assert.equal(post.status, 410);
      assert.match(post.body, /already been used/);
    });

    it("refuses expired, revoked, unknown and other realms' links", async () => {
      const path = await emailInvite({ invite_expires_in_minutes: 30 });
      t.clock.seconds += 31 * 60;
      const expired = await getPage(t, path);
      assert.equal(expired.status, 410);
      assert.match(expired.body, /This invitation link has expired\./);
      assert.equal((await join(path)).status, 410);
      assert.equal((await login("newbie@example.com")).status, 401);

      const revokedPath = await emailInvite({}, "revoked@example.com");
      const [row] = await t.deps.store.db.selectFrom("invitations").select("id").where("email", "=", "revoked@example.com").execute();
      assert.equal((await t.as("iago").delete(`/invites/${row.id}`)).status, 200);
      const revoked = await getPage(t, revokedPath);
      assert.equal(revoked.status, 410);
      assert.match(revoked.body, /This invitation has been revoked\./);

      const unknown = await getPage(t, "/join/not-a-real-key/");
      assert.equal(unknown.status, 404);
      assert.match(unknown.body, /This invitation link is not valid\./);
      const livePath = await emailInvite({}, "live@example.com");
      assert.equal((await getPage(t, livePath, "other.testserver.local:9991")).status, 404);
      assert.equal((await getPage(t, livePath.slice(0, -1))).status, 200);
    });

    it("shows the form again with the mistake, and the link still works", async () => {
      const path = await emailInvite();
      const short = await join(path, { password: "12345" });
      assert.equal(short.status, 400);
      assert.match(short.body, /role="alert"[^>]*>The password must be at least 6 characters long\./);
      assert.match(short.body, /value="New Person"/);
      const noName = await join(path, { full_name: "   " });
      assert.equal(noName.status, 400);
      assert.match(noName.body, /Name too short!/);
      assert.equal((await join(path)).status, 200);
    });

    it("lets several people join through a reusable link, each with their own address", async () => {
      const lounge = await createChannel(t, "lounge", ["iago"]);
      const res = await t.as("iago").post("/invites/multiuse", { stream_ids: [lounge], invite_as: 600 });
      const path = new URL(res.body.invite_link as string).pathname;
      const form = await getPage(t, path);
      assert.equal(form.status, 200);
      assert.doesNotMatch(form.body, /" readonly/);
      assert.equal((await join(path, { email: "one@example.com" })).status, 200);
      assert.equal((await join(path, { email: "two@example.com", full_name: "Two" })).status, 200);
      const taken = await join(path, { email: "hamlet@zulip.test" });
      assert.equal(taken.status, 400);
      assert.match(taken.body, /An account with this email address already exists\./);
      const bad = await join(path, { email: "nope" });
      assert.equal(bad.status, 400);
      assert.match(bad.body, /Invalid address\./);
      for (const email of ["one@example.com", "two@example.com"]) {
        const key = await login(email);
        assert.equal(key.status, 200);
        const me = { id: key.body.user_id, email, apiKey: key.body.api_key, fullName: "", role: 600 };
        assert.equal((await t.as(me).get("/users/me")).body.role, 600);
        assert.deepEqual((await t.as(me).get("/users/me/subscriptions")).body.subscriptions.map((s: { stream_id: number }) => s.stream_id), [lounge]);
      }
      assert.equal((await t.as("iago").delete(`/invites/multiuse/${(await t.as("iago").get("/invites")).body.invites[0].id}`)).status, 200);
      assert.equal((await getPage(t, path)).status, 410);
    });

    it("sends no notice when the inviter asked for none, and the welcome text when there is one", async () => {
      await setRealmSetting(t, "welcome_message_custom_text", "Read the **rules** first.");
      const path = await emailInvite({ notify_referrer_on_join: false });
      t.published.length = 0;
      assert.equal((await join(path)).status, 200);
      assert.deepEqual(messagesTo(t.users.iago.id), []);
      const newId = (await login("newbie@example.com")).body.user_id as number;
      // Welcome Bot's introduction, then the organization's text.
      const welcome = messagesTo(newId);
      assert.equal(welcome.length, 2);
      assert.match(welcome[0], /Welcome Bot/);
      assert.match(welcome[1], /Read the <strong>rules<\/strong> first\./);
    });

    it("escapes what it shows", async () => {
      await t.as("iago").patch("/settings", { full_name: "<b>Iago</b>" });
      const path = await emailInvite();
      const form = await getPage(t, path);
      assert.doesNotMatch(form.body, /<b>Iago<\/b>/);
      assert.match(form.body, /&#60;b&#62;Iago&#60;\/b&#62;/);
    });
  });
}
