/**
 * PATCH /settings with target_users (FL 444): administrators change other users' settings, by user
 * and by group (subgroups included, bots left out, deactivated users kept), and with
 * skip_if_already_edited leave alone the settings a user changed themselves. On every store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { mergeSettings } from "../../src/lib/user-settings.js";
import { readTx } from "../../src/store/db.js";
import { getUserById } from "../../src/store/users.js";
import { addGroup, eventsOf } from "../helpers/channels.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const CANNOT = "Cannot change this setting for other users.";

for (const kind of STORE_KINDS) {
  describe(`PATCH /settings for other users [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    async function setting(name: UserName, key: string): Promise<unknown> {
      const user = await getUserById(readTx(t.deps.store), t.realmId, t.users[name].id);
      return mergeSettings(user!.settings)[key];
    }
    const bulk = (who: UserName, target: Record<string, unknown>, settings: Record<string, unknown>) =>
      t.as(who).patch("/settings", { target_users: target, ...settings });

    it("lets administrators change the named users' settings, announcing each change to its user", async () => {
      const from = t.published.length;
      const res = await bulk("iago", { user_ids: [t.users.hamlet.id, t.users.othello.id], skip_if_already_edited: false }, { color_scheme: 2, web_home_view: "inbox" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ["msg", "result"]);
      for (const name of ["hamlet", "othello"] as const) {
        assert.equal(await setting(name, "color_scheme"), 2);
        assert.equal(await setting(name, "web_home_view"), "inbox");
      }
      assert.equal(await setting("cordelia", "color_scheme"), 1, "users not named keep theirs");
      assert.equal(await setting("iago", "color_scheme"), 1, "the administrator's own settings are not touched");
      const updates = eventsOf(t, "user_settings", "update", from);
      const schemeTo = updates.filter((p) => p.event.property === "color_scheme").map((p) => p.userIds);
      assert.deepEqual(schemeTo.sort(), [[t.users.hamlet.id], [t.users.othello.id]].sort());
      assert.ok(updates.every((p) => p.userIds.length === 1), "each user hears only of their own settings");
    });

    it("sends nothing for users who already have the value", async () => {
      const from = t.published.length;
      const res = await bulk("desdemona", { user_ids: [t.users.hamlet.id], skip_if_already_edited: false }, { color_scheme: 2 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(eventsOf(t, "user_settings", "update", from), []);
    });

    it("reaches group members through subgroups, deactivated ones included, and never bots", async () => {
      const inner = await addGroup(t, "bulk inner", ["cordelia", "bot"]);
      const outer = await addGroup(t, "bulk outer", ["polonius"], [inner]);
      assert.equal((await t.as("iago").delete(`/users/${t.users.cordelia.id}`)).status, 200);
      const res = await bulk("iago", { group_ids: [outer], skip_if_already_edited: false }, { twenty_four_hour_time: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(await setting("polonius", "twenty_four_hour_time"), true);
      assert.equal(await setting("cordelia", "twenty_four_hour_time"), true, "a deactivated member is changed too");
      assert.equal(await setting("bot", "twenty_four_hour_time"), false, "bots are left out");
      assert.equal(await setting("hamlet", "twenty_four_hour_time"), false);
      const direct = await bulk("iago", { user_ids: [t.users.bot.id], skip_if_already_edited: false }, { twenty_four_hour_time: true });
      assert.equal(direct.status, 200, "a bot named directly is skipped, not an error");
      assert.equal(await setting("bot", "twenty_four_hour_time"), false);
    });

    it("skip_if_already_edited leaves each setting a user chose themselves, and only that setting", async () => {
      assert.equal((await t.as("shiva").patch("/settings", { emojiset: "text" })).status, 200);
      const target = { user_ids: [t.users.shiva.id, t.users.othello.id], skip_if_already_edited: true };
      const res = await bulk("iago", target, { emojiset: "twitter", enter_sends: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(await setting("shiva", "emojiset"), "text", "shiva's own choice stays");
      assert.equal(await setting("shiva", "enter_sends"), true, "a setting shiva never changed is changed");
      assert.equal(await setting("othello", "emojiset"), "twitter");
      // An administrator's change is not the user's own: othello is still reached the next time.
      assert.equal((await bulk("iago", target, { emojiset: "google" })).status, 200);
      assert.equal(await setting("othello", "emojiset"), "google");
      assert.equal(await setting("shiva", "emojiset"), "text");
      // Without the flag, everyone is changed.
      assert.equal((await bulk("iago", { ...target, skip_if_already_edited: false }, { emojiset: "google" })).status, 200);
      assert.equal(await setting("shiva", "emojiset"), "google");
    });

    it("is for administrators only, and never for bots", async () => {
      const target = { user_ids: [t.users.othello.id], skip_if_already_edited: false };
      for (const who of ["shiva", "hamlet", "polonius"] as const) {
        assertError(await bulk(who, target, { color_scheme: 3 }), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      }
      assertError(await bulk("bot", target, { color_scheme: 3 }), "This endpoint does not accept bot requests.");
      assert.equal(await setting("othello", "color_scheme"), 2, "nothing changed");
    });

    it("refuses settings administrators may not change for others", async () => {
      const target = { user_ids: [t.users.othello.id], skip_if_already_edited: false };
      for (const sensitive of [{ presence_enabled: false }, { send_read_receipts: false }, { enable_digest_emails: false }, { email_address_visibility: 4 }]) {
        assertError(await bulk("iago", target, sensitive), CANNOT);
      }
      assertError(await bulk("iago", target, { timezone: "Europe/Paris" }), CANNOT);
      assertError(await bulk("iago", target, { old_password: "x", new_password: "a new long password" }), CANNOT);
      assertError(await bulk("iago", target, { color_scheme: 3, send_read_receipts: false }), CANNOT);
      assert.equal(await setting("othello", "color_scheme"), 2, "a refused call changes nothing");
    });

    it("refuses malformed targets and unknown users or groups with Zulip's errors", async () => {
      assertError(await bulk("iago", { skip_if_already_edited: true }, { color_scheme: 3 }), "Either user_ids or group_ids must be provided.");
      assertError(await bulk("iago", { user_ids: [], group_ids: [], skip_if_already_edited: true }, { color_scheme: 3 }), "Either user_ids or group_ids must be provided.");
      assertError(await bulk("iago", { user_ids: [t.users.othello.id] }, { color_scheme: 3 }), "target_users key is missing: skip_if_already_edited", "REQUEST_VARIABLE_INVALID");
      assertError(await bulk("iago", { user_ids: ["x"], skip_if_already_edited: true }, { color_scheme: 3 }), 'target_users["user_ids"][0] is not an integer', "REQUEST_VARIABLE_INVALID");
      assertError(await bulk("iago", { user_ids: [1], skip_if_already_edited: "yes" }, { color_scheme: 3 }), 'target_users["skip_if_already_edited"] is not a boolean', "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("iago").patch("/settings", { target_users: "[1, 2]", color_scheme: 3 }), "target_users is not a dict", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("iago").patch("/settings", { target_users: "{not json", color_scheme: 3 }), 'Argument "target_users" is not valid JSON.', "INVALID_JSON");
      assertError(await bulk("iago", { user_ids: [t.users.othello.id, 99999], skip_if_already_edited: true }, { color_scheme: 3 }), "Invalid user ID: 99999");
      assertError(await bulk("iago", { group_ids: [99999], skip_if_already_edited: true }, { color_scheme: 3 }), "Invalid user group ID: 99999");
      assertError(await bulk("iago", { user_ids: [t.users.othello.id], skip_if_already_edited: true }, { color_scheme: 9 }), "Invalid color_scheme", "REQUEST_VARIABLE_INVALID");
      assertError(await bulk("iago", { user_ids: [t.users.othello.id], skip_if_already_edited: true }, { notification_sound: "nope" }), "Invalid notification sound 'nope'");
      assert.equal(await setting("othello", "color_scheme"), 2);
      // Keys Zulip's model does not know are ignored, as pydantic ignores them.
      const extra = await bulk("iago", { user_ids: [t.users.othello.id], skip_if_already_edited: false, surprise: 1 }, { color_scheme: 3 });
      assert.equal(extra.status, 200, JSON.stringify(extra.body));
      assert.equal(await setting("othello", "color_scheme"), 3);
    });

    it("answers a target of tens of thousands of ids with one error and no write (ids are matched by set, not by nested scans)", async () => {
      const many = Array.from({ length: 60_000 }, (_, i) => 1_000_000 + i);
      assertError(await bulk("iago", { user_ids: [t.users.othello.id, ...many], skip_if_already_edited: false }, { color_scheme: 1 }), "Invalid user ID: 1000000");
      assert.equal(await setting("othello", "color_scheme"), 3);
    });
  });
}
