/**
 * A new organization starts as Zulip's do (src/actions/realm/realm-onboarding.ts): #general, #sandbox
 * and #Parley, all default channels, the owner subscribed, Welcome Bot's first messages unread,
 * and a member created afterwards subscribed to the default channels. Through the API, on both stores.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { doSetUpNewRealm } from "../../src/actions/realm/realm-onboarding.js";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { runCreateUser } from "../../src/cli/commands.js";
import { createTestRealm, EXTERNAL_HOST, PASSWORD, type TestRealm, type TestUser } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`a new organization's channels and first messages [${kind}]`, () => {
    let t: TestRealm;
    let owner: TestUser;
    let member: TestUser;
    const host = `fresh.${EXTERNAL_HOST}`;
    before(async () => {
      t = await createTestRealm(kind);
      const created = await checkCreateRealm(
        t.deps.store,
        { subdomain: "fresh", name: "Fresh", ownerEmail: "owner@fresh.test", ownerName: "Olive Owner", ownerPassword: PASSWORD },
        t.clock.now(),
        "{}",
        (tx, realm, user) => doSetUpNewRealm(t.deps, tx, realm, user),
      );
      owner = { id: created.owner.userId, email: created.owner.email, apiKey: created.owner.apiKey, fullName: "Olive Owner", role: 100 };
      const m = await runCreateUser(t.deps.store, t.clock, { realm: "fresh", email: "max@fresh.test", "full-name": "Max Member", password: PASSWORD });
      member = { id: m.user_id, email: m.email, apiKey: m.api_key, fullName: "Max Member", role: 400 };
    });
    after(() => t.close());

    const names = (subs: Array<{ name: string }>) => subs.map((s) => s.name).sort();

    it("subscribes the owner to #general, #sandbox and #Parley, which are the default channels", async () => {
      const subs = await t.as(owner, { host }).get("/users/me/subscriptions");
      assert.equal(subs.status, 200, JSON.stringify(subs.body));
      assert.deepEqual(names(subs.body.subscriptions), ["Parley", "general", "sandbox"]);
      const register = await t.as(owner, { host }).post("/register", { fetch_event_types: ["default_streams"] });
      assert.equal(register.status, 200, JSON.stringify(register.body));
      const ids = (subs.body.subscriptions as Array<{ stream_id: number }>).map((s) => s.stream_id).sort((a, b) => a - b);
      assert.deepEqual([...(register.body.realm_default_streams as number[])].sort((a, b) => a - b), ids);
    });

    it("announces new channels and new members in #general, as Zulip's new organizations do", async () => {
      const subs = await t.as(owner, { host }).get("/users/me/subscriptions");
      const general = (subs.body.subscriptions as Array<{ stream_id: number; name: string }>).find((s) => s.name === "general")!.stream_id;
      const register = await t.as(owner, { host }).post("/register", { fetch_event_types: ["realm"] });
      assert.equal(register.body.realm_new_stream_announcements_stream_id, general);
      assert.equal(register.body.realm_signup_announcements_stream_id, general);
    });

    it("starts with Welcome Bot's messages, unread for the owner", async () => {
      const res = await t.as(owner, { host }).get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const messages = res.body.messages as Array<{ sender_email: string; display_recipient: string; subject: string; flags: string[] }>;
      assert.deepEqual(messages.map((m) => `${m.display_recipient} > ${m.subject}`), ["general > greetings", "sandbox > experiments", "Parley > welcome"]);
      assert.ok(messages.every((m) => m.sender_email === "welcome-bot@zulip.com" && !m.flags.includes("read")));
    });

    it("subscribes a member created later to the default channels", async () => {
      const subs = await t.as(member, { host }).get("/users/me/subscriptions");
      assert.deepEqual(names(subs.body.subscriptions), ["Parley", "general", "sandbox"]);
    });

    it("leaves realms created without onboarding (the test fixtures) empty", async () => {
      const subs = await t.as("hamlet").get("/users/me/subscriptions");
      assert.equal(subs.status, 200);
      assert.ok(!names(subs.body.subscriptions).includes("sandbox"));
    });
  });
}
