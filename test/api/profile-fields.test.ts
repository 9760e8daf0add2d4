/** Custom profile fields of every type and users' values for them (spec 4.16), on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { CALLERS, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const ADMINS = ["desdemona", "iago"] as const;
const HUMANS = ["desdemona", "iago", "shiva", "hamlet", "polonius"] as const;

for (const kind of STORE_KINDS) {
  describe(`custom profile fields [${kind}]`, () => {
    let t: TestRealm;
    let ids: Record<string, number>;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      ids = {};
      const defs: Array<[string, Record<string, unknown>]> = [
        ["phone", { name: "Phone number", field_type: 1 }],
        ["bio", { name: "Biography", field_type: 2, hint: "What are you known for?" }],
        ["editor", { name: "Editor", field_type: 3, field_data: { vim: { text: "Vim", order: "1" }, emacs: { text: "Emacs", order: "2" } } }],
        ["birthday", { name: "Birthday", field_type: 4 }],
        ["website", { name: "Website", field_type: 5 }],
        ["mentor", { name: "Mentor", field_type: 6 }],
        ["github", { field_type: 7, field_data: { subtype: "github" } }],
        ["pronouns", { name: "Pronouns", field_type: 8, display_in_profile_summary: true }],
      ];
      for (const [key, params] of defs) {
        const res = await t.as("iago").post("/realm/profile_fields", params);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        ids[key] = res.body.id;
      }
    });
    afterEach(() => t.close());

    it("creates fields of every type and lists them in order", async () => {
      const res = await t.as("polonius").get("/realm/profile_fields");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const fields = res.body.custom_fields;
      assert.deepEqual(fields.map((f: { type: number }) => f.type), [1, 2, 3, 4, 5, 6, 7, 8]);
      assert.deepEqual(fields[1], {
        id: ids.bio,
        name: "Biography",
        type: 2,
        hint: "What are you known for?",
        field_data: "",
        order: fields[1].order,
        required: false,
        editable_by_user: true,
        use_for_user_matching: false,
      });
      assert.deepEqual(JSON.parse(fields[2].field_data), { vim: { text: "Vim", order: "1" }, emacs: { text: "Emacs", order: "2" } });
      assert.equal(fields[6].name, "GitHub username");
      assert.equal(fields[6].field_data, JSON.stringify({ subtype: "github" }));
      assert.equal(fields[7].display_in_profile_summary, true);
      const custom = await t.as("iago").post("/realm/profile_fields", {
        name: "Mastodon",
        field_type: 7,
        field_data: { subtype: "custom", url_pattern: "https://mastodon.social/@%(username)s" },
      });
      assert.equal(custom.status, 200, JSON.stringify(custom.body));
    });

    it("announces the whole list to everyone on each change", async () => {
      t.published.length = 0;
      await t.as("iago").post("/realm/profile_fields", { name: "Team", field_type: 1 });
      const event = t.published.find((e) => e.event.type === "custom_profile_fields");
      assert.equal((event?.event.fields as unknown[]).length, 9);
      assert.ok(event?.userIds.includes(t.users.polonius.id) && event.userIds.includes(t.users.bot.id));
    });

    it("refuses bad field definitions", async () => {
      await t.as("iago").post("/realm/profile_fields", { name: "İl", field_type: 1 });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: "  ", field_type: 1 }, "Label cannot be blank."],
        [{ name: "n".repeat(41), field_type: 1 }, "name is too long (limit: 40 characters)"],
        [{ name: "Hinted", hint: "h".repeat(81), field_type: 1 }, "hint is too long (limit: 80 characters)"],
        [{ name: "Odd", field_type: 9 }, "Invalid field type."],
        [{ name: "Empty list", field_type: 3 }, "Field must have at least one choice."],
        [{ name: "Bad list", field_type: 3, field_data: { python: { text: "Python" } } }, 'field_data["python"] key is missing: order'],
        [{ name: "Acct", field_type: 7, field_data: { subtype: "myspace" } }, "Invalid external account type"],
        [{ name: "Acct", field_type: 7, field_data: { subtype: "custom" } }, "Custom external account must define URL pattern"],
        [{ name: "Acct", field_type: 7, field_data: { subtype: "custom", url_pattern: "https://x.example/" } }, "Malformed URL pattern."],
        [{ name: "phone NUMBER", field_type: 1 }, "A field with that label already exists."],
        // Compared as the unique index compares, not by JavaScript's lower case (found by fuzzing: a 500).
        [{ name: "İl", field_type: 1 }, "A field with that label already exists."],
        [{ name: "Mentor", field_type: 6, display_in_profile_summary: true }, "Field type not supported for display in profile summary."],
      ];
      for (const [params, msg] of cases) assertError(await t.as("iago").post("/realm/profile_fields", params), msg);
      // Paragraphs may be shown in the profile summary since feature level 476.
      const essay = await t.as("iago").post("/realm/profile_fields", { name: "Essay", field_type: 2, display_in_profile_summary: true });
      assert.equal(essay.status, 200, JSON.stringify(essay.body));
      assertError(
        await t.as("iago").post("/realm/profile_fields", { name: "Third", field_type: 1, display_in_profile_summary: true }),
        "Only 2 custom profile fields can be displayed in the profile summary.",
      );
      assertError(await t.as("iago").post("/realm/profile_fields", { name: "No type" }), "Missing 'field_type' argument", "REQUEST_VARIABLE_MISSING");
    });

    it("updates, reorders and deletes fields", async () => {
      assert.equal((await t.as("iago").patch(`/realm/profile_fields/${ids.phone}`, { name: "Mobile", hint: "With country code", required: true })).status, 200);
      assertError(await t.as("iago").patch(`/realm/profile_fields/${ids.phone}`, { name: "Biography" }), "A field with that label already exists.");
      assertError(await t.as("iago").patch(`/realm/profile_fields/${ids.github}`, { name: "GH" }), "Default custom field cannot be updated.");
      assert.equal((await t.as("iago").patch(`/realm/profile_fields/${ids.github}`, { display_in_profile_summary: true })).status, 200);
      assertError(await t.as("iago").patch(`/realm/profile_fields/${ids.editor}`, { field_data: {} }), "Field must have at least one choice.");
      assertError(await t.as("iago").patch("/realm/profile_fields/99999", { name: "X" }), "Field id 99999 not found.");
      const order = Object.values(ids).reverse();
      assert.equal((await t.as("iago").patch("/realm/profile_fields", { order })).status, 200);
      const listed = (await t.as("hamlet").get("/realm/profile_fields")).body.custom_fields;
      assert.deepEqual(listed.map((f: { id: number }) => f.id), order);
      assert.equal(listed.find((f: { id: number }) => f.id === ids.phone).name, "Mobile");
      assert.equal(listed.find((f: { id: number }) => f.id === ids.phone).required, true);
      assertError(await t.as("iago").patch("/realm/profile_fields", { order: order.slice(1) }), "Invalid order mapping.");
      await t.as("hamlet").patch("/users/me/profile_data", { data: [{ id: ids.phone, value: "123" }] });
      assert.equal((await t.as("iago").delete(`/realm/profile_fields/${ids.phone}`)).status, 200);
      assertError(await t.as("iago").delete(`/realm/profile_fields/${ids.phone}`), `Field id ${ids.phone} not found.`);
      const me = (await t.as("hamlet").get(`/users/${t.users.hamlet.id}`, { include_custom_profile_fields: true })).body.user;
      assert.deepEqual(me.profile_data, {});
    });

    it("stores each type's value, rendering text as Markdown", async () => {
      t.published.length = 0;
      const data = [
        { id: ids.phone, value: "+0-11-23-456-7890" },
        { id: ids.bio, value: "I am:\n* The prince of Denmark" },
        { id: ids.editor, value: "vim" },
        { id: ids.birthday, value: "1900-01-01" },
        { id: ids.website, value: "https://blog.zulig.org" },
        { id: ids.mentor, value: [t.users.othello.id] },
        { id: ids.github, value: "zulipbot" },
        { id: ids.pronouns, value: "he/him" },
      ];
      const res = await t.as("hamlet").patch("/users/me/profile_data", { data });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const profile = (await t.as("othello").get(`/users/${t.users.hamlet.id}`, { include_custom_profile_fields: true })).body.user.profile_data;
      assert.deepEqual(profile[ids.phone], { value: "+0-11-23-456-7890", rendered_value: "<p>+0-11-23-456-7890</p>" });
      assert.equal(profile[ids.bio].value, "I am:\n* The prince of Denmark");
      assert.match(profile[ids.bio].rendered_value, /<ul>\s*<li>The prince of Denmark<\/li>\s*<\/ul>/);
      assert.deepEqual(profile[ids.editor], { value: "vim" });
      assert.deepEqual(profile[ids.mentor], { value: `[${t.users.othello.id}]` });
      assert.deepEqual(profile[ids.pronouns], { value: "he/him" });
      const events = t.published.filter((e) => e.event.type === "realm_user");
      assert.equal(events.length, 8);
      assert.deepEqual((events[2].event.person as Record<string, unknown>).custom_profile_field, { id: ids.editor, value: "vim" });
      t.published.length = 0;
      await t.as("hamlet").patch("/users/me/profile_data", { data });
      assert.equal(t.published.length, 0, "unchanged values are not announced");
      await t.as("hamlet").patch("/users/me/profile_data", { data: [{ id: ids.phone, value: null }, { id: ids.editor, value: "" }] });
      await t.as("hamlet").delete("/users/me/profile_data", { data: [ids.bio] });
      const after = (await t.as("hamlet").get(`/users/${t.users.hamlet.id}`, { include_custom_profile_fields: true })).body.user.profile_data;
      assert.deepEqual(Object.keys(after).map(Number).sort(), [ids.birthday, ids.website, ids.mentor, ids.github, ids.pronouns].sort());
    });

    it("checks each value against its field type", async () => {
      const cases: Array<[number, unknown, string]> = [
        [ids.phone, "1".repeat(51), "Phone number is too long (limit: 50 characters)"],
        [ids.bio, "b".repeat(501), "Biography is too long (limit: 500 characters)"],
        [ids.editor, "notepad", "'notepad' is not a valid choice for 'Editor'."],
        [ids.birthday, "1900-02-30", "Birthday is not a date"],
        [ids.website, "not a url", "Website is not a URL"],
        [ids.mentor, [99999], "Invalid user IDs: 99999"],
        [ids.mentor, [t.users.bot.id], `User with ID ${t.users.bot.id} is a bot`],
        [ids.mentor, "othello", "User IDs is not a list"],
        [ids.pronouns, [1], "Pronouns is not a string"],
        [99999, "x", "Field id 99999 not found."],
      ];
      for (const [id, value, msg] of cases) {
        assertError(await t.as("hamlet").patch("/users/me/profile_data", { data: [{ id: ids.phone, value: "ok" }, { id, value }] }), msg);
      }
      const profile = (await t.as("hamlet").get(`/users/${t.users.hamlet.id}`, { include_custom_profile_fields: true })).body.user.profile_data;
      assert.deepEqual(profile, {}, "a refused request writes nothing");
    });

    it("keeps fields not editable by users for administrators", async () => {
      await t.as("iago").patch(`/realm/profile_fields/${ids.phone}`, { editable_by_user: false });
      assertError(
        await t.as("hamlet").patch("/users/me/profile_data", { data: [{ id: ids.phone, value: "1" }] }),
        "You are not allowed to change this field. Contact an administrator to update it.",
      );
      assert.equal((await t.as("iago").patch("/users/me/profile_data", { data: [{ id: ids.phone, value: "1" }] })).status, 200);
      const res = await t.as("iago").patch(`/users/${t.users.hamlet.id}`, { profile_data: [{ id: ids.phone, value: "555" }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const profile = (await t.as("hamlet").get(`/users/${t.users.hamlet.id}`, { include_custom_profile_fields: true })).body.user.profile_data;
      assert.equal(profile[ids.phone].value, "555");
    });

    it("lets everyone read fields, administrators define them and humans fill them", async () => {
      await checkPermissions(CALLERS, (caller) => t.as(caller).get("/realm/profile_fields"));
      await checkPermissions(ADMINS, (caller) => t.as(caller).post("/realm/profile_fields", { name: `By ${caller}`, field_type: 1 }));
      await checkPermissions(ADMINS, (caller) => t.as(caller).patch(`/realm/profile_fields/${ids.phone}`, { hint: caller }));
      const allIds = (await t.as("iago").get("/realm/profile_fields")).body.custom_fields.map((f: { id: number }) => f.id);
      await checkPermissions(ADMINS, (caller) => t.as(caller).patch("/realm/profile_fields", { order: allIds }));
      const extra = await Promise.all(CALLERS.map((c) => t.as("iago").post("/realm/profile_fields", { name: `Doomed ${c}`, field_type: 1 })));
      let i = 0;
      await checkPermissions(ADMINS, (caller) => t.as(caller).delete(`/realm/profile_fields/${extra[i++].body.id}`));
      await checkPermissions(HUMANS, (caller) => t.as(caller).patch("/users/me/profile_data", { data: [{ id: ids.pronouns, value: caller }] }));
      await checkPermissions(HUMANS, (caller) => t.as(caller).delete("/users/me/profile_data", { data: [ids.pronouns] }));
      assertError(await t.as("bot").patch("/users/me/profile_data", { data: [] }), "This endpoint does not accept bot requests.");
    });
  });
}
