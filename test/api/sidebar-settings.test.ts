/**
 * The left sidebar's user settings web_left_sidebar_unreads_count_summary (FL 398) and
 * web_left_sidebar_show_channel_folders (FL 411), on every store: on by default, changed by
 * PATCH /settings (a user_settings update to the user) and by the realm's defaults for new users.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const NAMES = ["web_left_sidebar_unreads_count_summary", "web_left_sidebar_show_channel_folders"];

for (const kind of STORE_KINDS) {
  describe(`left sidebar settings [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const registered = async () => {
      const res = await t.as("hamlet").post("/register", { fetch_event_types: ["user_settings", "realm_user_settings_defaults"] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as { user_settings: Record<string, unknown>; realm_user_settings_defaults: Record<string, unknown> };
    };

    it("defaults to on, and each changes for the user with a user_settings update", async () => {
      const before = await registered();
      for (const name of NAMES) {
        assert.equal(before.user_settings[name], true);
        assert.equal(before.realm_user_settings_defaults[name], true);
      }
      for (const name of NAMES) {
        t.published.length = 0;
        const res = await t.as("hamlet").patch("/settings", { [name]: false });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const [event] = eventsOf(t, "user_settings", "update");
        assert.deepEqual([event.event.property, event.event.value, event.userIds], [name, false, [t.users.hamlet.id]]);
      }
      const after = await registered();
      for (const name of NAMES) assert.equal(after.user_settings[name], false);
    });

    it("takes realm defaults from administrators only, and refuses non-booleans", async () => {
      const res = await t.as("iago").patch("/realm/user_settings_defaults", { web_left_sidebar_show_channel_folders: false });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await registered()).realm_user_settings_defaults.web_left_sidebar_show_channel_folders, false);
      assertError(await t.as("hamlet").patch("/realm/user_settings_defaults", { web_left_sidebar_show_channel_folders: true }), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("hamlet").patch("/settings", { web_left_sidebar_unreads_count_summary: 2 }), "web_left_sidebar_unreads_count_summary is not a boolean", "REQUEST_VARIABLE_INVALID");
    });
  });
}
