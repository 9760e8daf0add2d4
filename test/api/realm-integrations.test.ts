/**
 * Code playgrounds, allowed domains and bot API keys (issue 17): parameters, Zulip's errors,
 * who may call, the events, and the domain restriction at invitations and account creation.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { setRealm } from "../helpers/channels.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const PYTHON = { name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" };

for (const kind of STORE_KINDS) {
  describe(`code playgrounds, allowed domains and bot API keys [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    it("adds and removes playgrounds, announcing the whole list to everyone", async () => {
      t.published.length = 0;
      const res = await t.as("iago").post("/realm/playgrounds", { ...PYTHON, name: "  Python playground " });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const event = t.published.find((e) => e.event.type === "realm_playgrounds");
      assert.deepEqual(event?.event.realm_playgrounds, [{ id: res.body.id, ...PYTHON }]);
      assert.ok(event?.userIds.includes(t.users.polonius.id));
      const state = await t.as("hamlet").post("/register", { fetch_event_types: ["realm_playgrounds"] });
      assert.deepEqual(state.body.realm_playgrounds, [{ id: res.body.id, ...PYTHON }]);
      // Same name, another language: a different playground.
      assert.equal((await t.as("iago").post("/realm/playgrounds", { ...PYTHON, pygments_language: "Python3" })).status, 200);
      assert.equal((await t.as("iago").delete(`/realm/playgrounds/${res.body.id}`)).status, 200);
      assertError(await t.as("iago").delete(`/realm/playgrounds/${res.body.id}`), "Invalid playground");
      const after = await t.as("hamlet").post("/register", { fetch_event_types: ["realm_playgrounds"] });
      assert.deepEqual(after.body.realm_playgrounds.map((p: { pygments_language: string }) => p.pygments_language), ["Python3"]);
    });

    it("refuses invalid playgrounds with Zulip's messages", async () => {
      await t.as("iago").post("/realm/playgrounds", PYTHON);
      const cases: Array<[Record<string, unknown>, string, string?]> = [
        [PYTHON, "Realm playground with this Realm, Pygments language and Name already exists."],
        [{ ...PYTHON, pygments_language: "py$thon" }, "Invalid characters in pygments language"],
        [{ ...PYTHON, pygments_language: "x".repeat(41) }, "pygments_language is too long (limit: 40 characters)", "REQUEST_VARIABLE_INVALID"],
        [{ ...PYTHON, name: "  " }, "This field cannot be blank."],
        [{ ...PYTHON, url_template: "https://example.com/{code" }, "Invalid URL template."],
        [{ ...PYTHON, url_template: "https://example.com/run" }, 'Missing the required variable "code" in the URL template'],
        [{ ...PYTHON, url_template: "https://example.com/{lang}?c={code}" }, '"code" should be the only variable present in the URL template'],
      ];
      for (const [params, msg, code] of cases) assertError(await t.as("iago").post("/realm/playgrounds", params), msg, code);
      assertError(await t.as("iago").post("/realm/playgrounds", { name: "x", pygments_language: "x" }), "Missing 'url_template' argument", "REQUEST_VARIABLE_MISSING");
    });

    it("lets only administrators manage playgrounds", async () => {
      let n = 0;
      await checkPermissions(["desdemona", "iago"], (who) => t.as(who).post("/realm/playgrounds", { ...PYTHON, name: `P${n++}` }));
      const id = (await t.as("iago").post("/realm/playgrounds", { ...PYTHON, name: "last" })).body.id;
      assertError(await t.as("hamlet").delete(`/realm/playgrounds/${id}`), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    });

    it("adds, changes, lists and removes allowed domains", async () => {
      t.published.length = 0;
      const added = await t.as("desdemona").post("/realm/domains", { domain: " Example.COM ", allow_subdomains: false });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      assert.equal(added.body.new_domain[1], "example.com");
      assert.deepEqual(t.published.find((e) => e.event.type === "realm_domains")?.event, { type: "realm_domains", op: "add", realm_domain: { domain: "example.com", allow_subdomains: false } });
      assertError(await t.as("desdemona").post("/realm/domains", { domain: "example.com", allow_subdomains: true }), "The domain example.com is already a part of your organization.");
      assert.equal((await t.as("desdemona").patch("/realm/domains/example.com", { allow_subdomains: true })).status, 200);
      assert.deepEqual((await t.as("polonius").get("/realm/domains")).body.domains, [{ domain: "example.com", allow_subdomains: true }]);
      assertError(await t.as("desdemona").patch("/realm/domains/example.org", { allow_subdomains: true }), "No entry found for domain example.org.");
      assertError(await t.as("desdemona").delete("/realm/domains/example.org"), "No entry found for domain example.org.");
      assert.equal((await t.as("desdemona").delete("/realm/domains/example.com")).status, 200);
      assert.deepEqual((await t.as("hamlet").get("/realm/domains")).body.domains, []);
    });

    it("validates domains as Zulip does", async () => {
      const cases: Array<[string, string]> = [
        ["", "Invalid domain: Domain can't be empty."],
        ["localhost", "Invalid domain: Domain must have at least one dot (.)"],
        [".example.com", "Invalid domain: Domain cannot start or end with a dot (.)"],
        ["a..b", "Invalid domain: Consecutive '.' are not allowed."],
        ["-a.com", "Invalid domain: Subdomains cannot start or end with a '-'."],
        ["a_b.com", "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
        [`${"a".repeat(260)}.com`, "Invalid domain: Domain is too long"],
      ];
      for (const [domain, msg] of cases) assertError(await t.as("desdemona").post("/realm/domains", { domain, allow_subdomains: false }), msg);
      assertError(await t.as("desdemona").post("/realm/domains", { domain: "a.com" }), "Missing 'allow_subdomains' argument", "REQUEST_VARIABLE_MISSING");
    });

    it("lets only owners change allowed domains; everyone may list them", async () => {
      let n = 0;
      await checkPermissions(["desdemona"], (who) => t.as(who).post("/realm/domains", { domain: `d${n++}.example.com`, allow_subdomains: false }));
      assertError(await t.as("iago").patch("/realm/domains/d0.example.com", { allow_subdomains: true }), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("iago").delete("/realm/domains/d0.example.com"), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).get("/realm/domains"));
    });

    it("enforces the domains at invitations and account creation, and lifts the restriction with the last domain", async () => {
      await t.as("desdemona").post("/realm/domains", { domain: "example.com", allow_subdomains: false });
      await setRealm(t, { emails_restricted_to_domains: true });
      const invite = (emails: string) => t.as("iago").post("/invites", { invitee_emails: emails, stream_ids: [] });
      const refused = await invite("x@dept.example.com");
      assert.deepEqual(refused.body.errors, [["x@dept.example.com", "Outside your domain.", false]]);
      await t.as("desdemona").patch("/realm/domains/example.com", { allow_subdomains: true });
      assert.equal((await invite("x@dept.example.com")).status, 200);
      const create = (email: string) => t.as("iago").post("/users", { email, password: "secret-pass", full_name: "New person" });
      assertError(await create("y@elsewhere.org"), "Email 'y@elsewhere.org' not allowed in this organization");
      assertError(await create("y+tag@example.com"), "Email addresses containing + are not allowed.");
      assert.equal((await create("y@example.com")).status, 200);
      t.published.length = 0;
      assert.equal((await t.as("desdemona").delete("/realm/domains/example.com")).status, 200);
      const lifted = t.published.find((e) => e.event.type === "realm");
      assert.deepEqual(lifted?.event, { type: "realm", op: "update", property: "emails_restricted_to_domains", value: false });
      assert.equal((await invite("z@elsewhere.org")).status, 200);
    });

    it("regenerates a bot's API key for its owner or an administrator; the old key stops working", async () => {
      const bot = await t.as("hamlet").post("/bots", { full_name: "Key bot", short_name: "keybot" });
      const id = bot.body.user_id as number;
      t.published.length = 0;
      const res = await t.as("hamlet").post(`/bots/${id}/api_key/regenerate`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.notEqual(res.body.api_key, bot.body.api_key);
      assert.equal((await t.as("hamlet").get(`/bots/${id}/api_key`)).body.api_key, res.body.api_key);
      const event = t.published.find((e) => e.event.type === "realm_bot");
      assert.deepEqual(event?.event, { type: "realm_bot", op: "update", bot: { user_id: id, api_key: res.body.api_key } });
      assert.ok(!event?.userIds.includes(t.users.othello.id));
      const email = (await t.as("hamlet").get("/bots")).body.bots[0].username as string;
      const old = await t.app.inject({ method: "GET", url: "/api/v1/users/me", headers: { host: t.host, authorization: `Basic ${Buffer.from(`${email}:${bot.body.api_key}`).toString("base64")}` } });
      assert.equal(old.statusCode, 401);
      await checkPermissions(["desdemona", "iago", "hamlet"], (who) => t.as(who).post(`/bots/${id}/api_key/regenerate`));
      assertError(await t.as("hamlet").post(`/bots/${t.users.othello.id}/api_key/regenerate`), "No such bot");
      assertError(await t.as("hamlet").post("/bots/999999/api_key/regenerate"), "No such bot");
    });
  });
}
