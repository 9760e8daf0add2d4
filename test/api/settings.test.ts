/** Personal settings (PATCH /settings) and the realm's defaults for new users (spec 4.2), on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { getUserById } from "../../src/store/users.js";
import { mergeSettings } from "../../src/lib/user-settings.js";
import { createTestRealm, PASSWORD, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`settings and realm defaults [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    async function settingsOf(name: UserName): Promise<Record<string, unknown>> {
      const user = await getUserById(readTx(t.deps.store), t.realmId, t.users[name].id);
      return { ...mergeSettings(user!.settings), timezone: user!.timezone, full_name: user!.full_name };
    }

    it("changes only the passed settings and announces each to the user", async () => {
      t.published.length = 0;
      const res = await t.as("hamlet").patch("/settings", {
        receives_typing_notifications: false,
        color_scheme: 2,
        web_home_view: "recent",
        emojiset: "text",
        notification_sound: "ding",
        email_notifications_batching_period_seconds: 300,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const s = await settingsOf("hamlet");
      assert.equal(s.receives_typing_notifications, false);
      assert.equal(s.color_scheme, 2);
      assert.equal(s.web_home_view, "recent");
      assert.equal(s.emojiset, "text");
      assert.equal(s.enter_sends, false);
      const events = t.published.filter((e) => e.event.type === "user_settings");
      assert.equal(events.length, 6);
      assert.ok(events.every((e) => e.userIds.length === 1 && e.userIds[0] === t.users.hamlet.id));
      assert.deepEqual(events.find((e) => e.event.property === "color_scheme")?.event, { type: "user_settings", op: "update", property: "color_scheme", value: 2 });
    });

    it("refuses values outside each setting's allowed set, changing nothing", async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ color_scheme: 7 }, "Invalid color_scheme", "REQUEST_VARIABLE_INVALID"],
        [{ emojiset: "apple" }, "Invalid emojiset", "REQUEST_VARIABLE_INVALID"],
        [{ web_home_view: "recent_topics" }, "Invalid web_home_view", "REQUEST_VARIABLE_INVALID"],
        [{ email_address_visibility: 6 }, "Invalid email_address_visibility", "REQUEST_VARIABLE_INVALID"],
        [{ enter_sends: 5 }, "enter_sends is not a boolean", "REQUEST_VARIABLE_INVALID"],
        [{ notification_sound: "klaxon" }, "Invalid notification sound 'klaxon'", "BAD_REQUEST"],
        [{ email_notifications_batching_period_seconds: 0 }, "Invalid email batching period: 0 seconds", "BAD_REQUEST"],
        [{ timezone: "Mars/Olympus" }, "timezone is not a recognized time zone", "BAD_REQUEST"],
        [{ default_language: "not a language" }, "Invalid default_language", "BAD_REQUEST"],
      ];
      for (const [params, msg, code] of cases) {
        assertError(await t.as("hamlet").patch("/settings", { enter_sends: true, ...params }), msg, code);
      }
      assert.equal((await settingsOf("hamlet")).enter_sends, false);
    });

    it("changes the time zone and the full name, telling everyone", async () => {
      t.published.length = 0;
      assert.equal((await t.as("hamlet").patch("/settings", { timezone: "Europe/Copenhagen", full_name: "Hamlet, Prince" })).status, 200);
      const s = await settingsOf("hamlet");
      assert.equal(s.timezone, "Europe/Copenhagen");
      assert.equal(s.full_name, "Hamlet, Prince");
      const tz = t.published.find((e) => e.event.type === "realm_user" && (e.event.person as { timezone?: string }).timezone);
      assert.deepEqual(tz?.event.person, { user_id: t.users.hamlet.id, email: "hamlet@zulip.test", timezone: "Europe/Copenhagen" });
      assert.ok(tz?.userIds.includes(t.users.othello.id));
      assert.equal((await t.as("hamlet").patch("/settings", { timezone: "US/Pacific" })).status, 200);
      assertError(await t.as("hamlet").patch("/settings", { full_name: "" }), "Name too short!");
    });

    it("changes the password only with the old one", async () => {
      assertError(await t.as("hamlet").patch("/settings", { old_password: "wrong", new_password: "a new password" }), "Wrong password!");
      assertError(await t.as("hamlet").patch("/settings", { old_password: PASSWORD, new_password: "abc" }), "New password is too weak!");
      assert.equal((await t.as("hamlet").patch("/settings", { old_password: PASSWORD, new_password: "a new password" })).status, 200);
      const login = await t.as(null).post("/fetch_api_key", { username: "hamlet@zulip.test", password: "a new password" });
      assert.equal(login.status, 200, JSON.stringify(login.body));
    });

    it("deletes stored drafts when draft synchronization is turned off", async () => {
      await transaction(t.deps.store, (tx) =>
        tx.db.insertInto("drafts").values({ user_id: t.users.hamlet.id, type: "stream", content: "draft", timestamp: 1 }).execute(),
      );
      const count = async () => (await readTx(t.deps.store).db.selectFrom("drafts").selectAll().where("user_id", "=", t.users.hamlet.id).execute()).length;
      assert.equal(await count(), 1);
      assert.equal((await t.as("hamlet").patch("/settings", { enable_drafts_synchronization: false })).status, 200);
      assert.equal(await count(), 0);
    });

    it("is for humans only", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius"], (caller) => t.as(caller).patch("/settings", { enter_sends: true }));
      assertError(await t.as("bot").patch("/settings", { enter_sends: true }), "This endpoint does not accept bot requests.");
    });

    it("sets realm defaults for users who join later, never for existing users", async () => {
      t.published.length = 0;
      const res = await t.as("iago").patch("/realm/user_settings_defaults", {
        enter_sends: true,
        twenty_four_hour_time: true,
        web_font_size_px: 20,
        color_scheme: 3,
        emojiset: "twitter",
        web_channel_default_view: 4,
        automatically_follow_topics_policy: 1,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const events = t.published.filter((e) => e.event.type === "realm_user_settings_defaults");
      assert.equal(events.length, 7);
      assert.ok(events[0].userIds.includes(t.users.polonius.id));
      assert.equal((await settingsOf("hamlet")).enter_sends, false);
      const created = await t.as("iago").post("/users", { email: "late@zulip.test", password: "long enough password", full_name: "Late" });
      const late = await getUserById(readTx(t.deps.store), t.realmId, created.body.user_id);
      const s = mergeSettings(late!.settings);
      assert.equal(s.enter_sends, true);
      assert.equal(s.web_font_size_px, 20);
      assert.equal(s.emojiset, "twitter");
    });

    it("checks every realm default against its allowed values and ignores unknown parameters", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ demote_inactive_streams: 4 }, "Invalid demote_inactive_streams"],
        [{ user_list_style: 0 }, "Invalid user_list_style"],
        [{ desktop_icon_count_display: 5 }, "Invalid desktop_icon_count_display"],
        [{ resolved_topic_notice_auto_read_policy: "sometimes" }, "Invalid resolved_topic_notice_auto_read_policy"],
        [{ web_animate_image_previews: "maybe" }, "Invalid web_animate_image_previews"],
        [{ web_stream_unreads_count_display_policy: 4 }, "Invalid web_stream_unreads_count_display_policy"],
        [{ automatically_unmute_topics_in_muted_streams_policy: 5 }, "Invalid automatically_unmute_topics_in_muted_streams_policy"],
      ];
      for (const [params, msg] of cases) {
        assertError(await t.as("iago").patch("/realm/user_settings_defaults", params), msg, "REQUEST_VARIABLE_INVALID");
      }
      assertError(await t.as("iago").patch("/realm/user_settings_defaults", { notification_sound: "klaxon" }), "Invalid notification sound 'klaxon'");
      const ignored = await t.as("iago").patch("/realm/user_settings_defaults", { timezone: "UTC", enter_sends: true, bogus: 1 });
      assert.equal(ignored.status, 200);
      assert.deepEqual(ignored.body.ignored_parameters_unsupported.sort(), ["bogus", "timezone"]);
    });

    it("lets only administrators change realm defaults", async () => {
      await checkPermissions(["desdemona", "iago"], (caller) => t.as(caller).patch("/realm/user_settings_defaults", { enter_sends: true }));
    });
  });
}
