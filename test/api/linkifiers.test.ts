/** Linkifiers (spec 4.17): add, update, delete, reorder and their use in rendering, on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { CALLERS, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const ADMINS: UserName[] = ["desdemona", "iago"];
const ISSUE = { pattern: "#(?P<id>[0-9]+)", url_template: "https://github.com/zulip/zulip/issues/{id}" };

for (const kind of STORE_KINDS) {
  describe(`linkifiers [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    async function add(params: Record<string, unknown>): Promise<number> {
      const res = await t.as("iago").post("/realm/filters", params);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.id;
    }

    it("adds a linkifier that rendering then uses, and announces the list", async () => {
      t.published.length = 0;
      const id = await add({ ...ISSUE, example_input: "#123", reverse_template: "#{id}", alternative_url_templates: ["https://zulip.example/{id}"] });
      const listed = await t.as("polonius").get("/realm/linkifiers");
      assert.deepEqual(listed.body.linkifiers, [
        { ...ISSUE, id, example_input: "#123", reverse_template: "#{id}", alternative_url_templates: ["https://zulip.example/{id}"] },
      ]);
      assert.deepEqual((await t.as("hamlet").get("/realm/filters")).body.filters, [[ISSUE.pattern, ISSUE.url_template, id]]);
      const event = t.published.find((e) => e.event.type === "realm_linkifiers");
      assert.deepEqual(event?.event.realm_linkifiers, listed.body.linkifiers);
      assert.ok(event?.userIds.includes(t.users.polonius.id));
      const sent = await t.as("hamlet").post("/messages", { type: "direct", to: [t.users.othello.id], content: "see #123" });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const message = await t.as("othello").get(`/messages/${sent.body.id}`);
      assert.match(message.body.message.content, /href="https:\/\/github\.com\/zulip\/zulip\/issues\/123"/);
    });

    it("treats {{ and }} in reverse templates as braces", async () => {
      await add({ pattern: "\\{(?P<id>[0-9]+)\\}", url_template: "https://example.com/{id}", example_input: "{42}", reverse_template: "{{{id}}}" });
    });

    it("refuses invalid linkifiers", async () => {
      await add(ISSUE);
      const cases: Array<[Record<string, unknown>, string | RegExp]> = [
        [{ pattern: "#(?P<id>[0-9+)", url_template: ISSUE.url_template }, "Bad regular expression: missing ]: [0-9+)"],
        // RE2 (Zulip's engine) has no lookaround and no backreferences: refused at creation.
        [{ pattern: "#(?P<id>[0-9]+)(?=x)", url_template: ISSUE.url_template }, "Bad regular expression: invalid perl operator: (?="],
        [{ pattern: "(?P<id>a)(?P=id)", url_template: ISSUE.url_template }, "Bad regular expression: invalid perl operator: (?P"],
        [{ pattern: "(?P<id>a)\\1", url_template: ISSUE.url_template }, "Bad regular expression: invalid escape sequence: \\1"],
        // Past RE2's program size (found by fuzzing as a 500 with V8).
        [{ pattern: "(?P<id>a{1000}){1000}", url_template: ISSUE.url_template }, "Bad regular expression: invalid repetition size: {1000}"],
        [{ pattern: "(?P<id>\\pL{999})" + "\\pL{999}".repeat(9), url_template: ISSUE.url_template }, "Bad regular expression: pattern too large - compile failed"],
        [{ pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/{id" }, "Invalid URL template."],
        [{ pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/ {id}" }, "Invalid URL template."],
        [{ pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/{num}" }, "Group 'num' in URL template is not present in linkifier pattern."],
        [{ pattern: "x(?P<id>[0-9]+)(?P<n>[a-z])", url_template: "https://example.com/{id}" }, "Group 'n' in linkifier pattern is not present in URL template."],
        [{ pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/{id}", example_input: "abc" }, "Example input does not match the linkifier pattern."],
        [
          { pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/{id}", example_input: "x12", reverse_template: "y{id}" },
          "Example text does not match auto-conversion field.",
        ],
        [
          { pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/{id}", example_input: "x12", reverse_template: "x{num}" },
          "Group 'num' in auto-conversion field is not present in linkifier pattern.",
        ],
        [{ pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/{id}", reverse_template: "x{id}" }, "Example text is required when the auto-conversion field is set."],
        [{ pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/{id}", alternative_url_templates: ["https://e.com/{other}"] }, "Group 'other' in URL template is not present in linkifier pattern."],
        [{ pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/{id}", alternative_url_templates: ["https://e.com/{id"] }, "Invalid URL template."],
        [ISSUE, "Realm filter with this Realm and Pattern already exists."],
        // Zulip's model refuses a blank pattern (issue 22: an empty one matched everywhere).
        [{ pattern: "", url_template: "https://example.com/" }, "This field cannot be blank."],
        [{ pattern: "  ", url_template: "https://example.com/" }, "This field cannot be blank."],
        [{ pattern: "x(?P<id>[0-9]+)" }, "Missing 'url_template' argument"],
      ];
      for (const [params, msg] of cases) {
        const res = await t.as("iago").post("/realm/filters", params);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        if (typeof msg === "string") assert.equal(res.body.msg, msg);
        else assert.match(res.body.msg, msg);
      }
      assert.equal((await t.as("iago").get("/realm/linkifiers")).body.linkifiers.length, 1);
    });

    it("updates, deletes and reorders linkifiers", async () => {
      const a = await add(ISSUE);
      const b = await add({ pattern: "T(?P<id>[0-9]+)", url_template: "https://trac.example/{id}" });
      const res = await t.as("iago").patch(`/realm/filters/${a}`, { pattern: "Z#(?P<id>[0-9]+)", url_template: "https://z.example/{id}", example_input: "" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertError(await t.as("iago").patch("/realm/filters/99999", ISSUE), "Linkifier not found.");
      assertError(await t.as("iago").patch(`/realm/filters/${a}`, { pattern: "T(?P<id>[0-9]+)", url_template: "https://x/{id}" }), "Realm filter with this Realm and Pattern already exists.");
      assert.equal((await t.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: [b, a] })).status, 200);
      const listed = (await t.as("hamlet").get("/realm/linkifiers")).body.linkifiers;
      assert.deepEqual(listed.map((l: { id: number }) => l.id), [b, a]);
      assert.equal(listed[1].url_template, "https://z.example/{id}");
      assert.equal(listed[1].example_input, null);
      const wrong = "The ordered list must enumerate all existing linkifiers exactly once";
      assertError(await t.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: [a] }), wrong);
      assertError(await t.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: [a, a] }), wrong);
      assertError(await t.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: [a, b, 99999] }), wrong);
      assert.equal((await t.as("iago").delete(`/realm/filters/${a}`)).status, 200);
      assertError(await t.as("iago").delete(`/realm/filters/${a}`), "Linkifier not found.");
      assert.equal((await t.as("hamlet").get("/realm/linkifiers")).body.linkifiers.length, 1);
    });

    it("lets everyone read linkifiers and only administrators change them", async () => {
      await checkPermissions(CALLERS, (caller) => t.as(caller).get("/realm/linkifiers"));
      await checkPermissions(CALLERS, (caller) => t.as(caller).get("/realm/filters"));
      let n = 0;
      await checkPermissions(ADMINS, (caller) => t.as(caller).post("/realm/filters", { pattern: `P${++n}(?P<id>[0-9]+)`, url_template: "https://e.com/{id}" }));
      const id = await add(ISSUE);
      await checkPermissions(ADMINS, (caller) => t.as(caller).patch(`/realm/filters/${id}`, { ...ISSUE, example_input: `#${caller.length}` }));
      const ids = (await t.as("iago").get("/realm/linkifiers")).body.linkifiers.map((l: { id: number }) => l.id);
      await checkPermissions(ADMINS, (caller) => t.as(caller).patch("/realm/linkifiers", { ordered_linkifier_ids: caller === "iago" ? ids : [...ids].reverse() }));
      const doomed = await Promise.all(CALLERS.map((c, i) => add({ pattern: `D${i}(?P<id>[0-9]+)`, url_template: `https://d.example/${c}/{id}` })));
      let i = 0;
      await checkPermissions(ADMINS, (caller) => t.as(caller).delete(`/realm/filters/${doomed[i++]}`));
    });
  });
}
