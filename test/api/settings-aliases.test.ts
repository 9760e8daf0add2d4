/**
 * PATCH /settings/notifications and PATCH /settings/display: since FL 80 Zulip routes both to the
 * very view behind PATCH /settings (zproject/urls.py: "legacy aliases for /settings"), so each
 * takes every personal setting with the same checks, events and answer. On every store.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { readTx } from "../../src/store/db.js";
import { getUserById } from "../../src/store/users.js";
import { mergeSettings } from "../../src/lib/user-settings.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`legacy settings paths [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const settings = async () => mergeSettings((await getUserById(readTx(t.deps.store), t.realmId, t.users.hamlet.id))!.settings);

    it("changes notification settings as the Python bindings' update_notification_settings sends them", async () => {
      t.published.length = 0;
      // client.update_notification_settings({...}): PATCH settings/notifications, booleans as JSON text.
      // Channel pushes are off by default, as in Zulip (UserBaseSettings): turning them on is a change.
      const res = await t.as("hamlet").patch("/settings/notifications", { enable_stream_push_notifications: true, enable_offline_push_notifications: false });
      assert.deepEqual(res.body, { result: "success", msg: "" });
      const s = await settings();
      assert.equal(s.enable_stream_push_notifications, true);
      assert.equal(s.enable_offline_push_notifications, false);
      assert.deepEqual(eventsOf(t, "user_settings", "update").map((e) => [e.event.property, e.event.value]).sort(), [
        ["enable_offline_push_notifications", false],
        ["enable_stream_push_notifications", true],
      ]);
    });

    it("changes display settings through /settings/display", async () => {
      assert.equal((await t.as("hamlet").patch("/settings/display", { twenty_four_hour_time: true, emojiset: "text", color_scheme: 3 })).status, 200);
      const s = await settings();
      assert.deepEqual([s.twenty_four_hour_time, s.emojiset, s.color_scheme], [true, "text", 3]);
    });

    it("accepts any setting under either path, as the one view behind all three does", async () => {
      assert.equal((await t.as("hamlet").patch("/settings/display", { enable_sounds: false })).status, 200);
      assert.equal((await t.as("hamlet").patch("/settings/notifications", { emojiset: "google" })).status, 200);
      const s = await settings();
      assert.deepEqual([s.enable_sounds, s.emojiset], [false, "google"]);
    });

    it("checks values and reports unknown parameters exactly as PATCH /settings does", async () => {
      for (const path of ["/settings", "/settings/display", "/settings/notifications"]) {
        assertError(await t.as("hamlet").patch(path, { color_scheme: 9 }), "Invalid color_scheme", "REQUEST_VARIABLE_INVALID");
        assertError(await t.as("hamlet").patch(path, { enable_sounds: "loud" }), 'Argument "enable_sounds" is not valid JSON.', "INVALID_JSON");
        const res = await t.as("hamlet").patch(path, { no_such_setting: true, enable_sounds: true });
        assert.deepEqual(res.body, { result: "success", msg: "", ignored_parameters_unsupported: ["no_such_setting"] });
      }
      // Other methods on the legacy paths are not routes.
      const res = await t.as("hamlet").post("/settings/display", { emojiset: "text" });
      assert.equal(res.status, 405);
    });

    it("is open to every human account, and refuses bots, like PATCH /settings (human_users_only)", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius"], (who) => t.as(who).patch("/settings/notifications", { enable_sounds: false }));
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius"], (who) => t.as(who).patch("/settings/display", { emojiset: "text" }));
    });
  });
}
