/**
 * What register and the event queues give clients that did not declare two client capabilities
 * (OpenAPI register client_capabilities; zulip-facts section f):
 * - user_settings_object (FL 89): the legacy settings as top-level keys, fetched through the
 *   update_display_settings and update_global_notifications event types, and those events
 *   beside each user_settings update; declaring it leaves one copy (the user_settings object).
 * - notification_settings_null (Zulip 2.1): register's subscriptions carry booleans, a null
 *   (inherit) channel notification setting replaced by the user's global setting.
 * Every delivered event is checked against the OpenAPI event schemas (test/helpers/contract/).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { LEGACY_DISPLAY_SETTINGS, LEGACY_NOTIFICATION_SETTINGS } from "../../src/events/user-settings-events.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { createChannel } from "../helpers/messages.js";
import { eventViolations } from "../helpers/contract/validator.js";
import { STORE_KINDS } from "../helpers/stores.js";
import type { Event, State } from "./event-state.js";
import { MODERN_CAPABILITIES } from "./verify-action.js";

const LEGACY_SETTINGS = { ...MODERN_CAPABILITIES, user_settings_object: false };
const LEGACY_SUBSCRIPTIONS = { ...MODERN_CAPABILITIES, notification_settings_null: false };
const NOTIFICATIONS = ["desktop_notifications", "audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify"];

for (const kind of STORE_KINDS) {
  describe(`clients without user_settings_object or notification_settings_null [${kind}]`, () => {
    let t: TestRealm;
    let veronaId: number;
    before(async () => {
      t = await createTestRealm(kind);
      veronaId = await createChannel(t, "Verona", ["hamlet", "othello"]);
    });
    after(() => t.close());

    async function register(who: UserName, params: Record<string, unknown>): Promise<State> {
      const res = await t.as(who).post("/register", params);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    }

    async function drain(who: UserName, queueId: string): Promise<Event[]> {
      const res = await t.as(who).get("/events", { queue_id: queueId, dont_block: true });
      const events = (res.body.events as Event[]).filter((e) => e.type !== "heartbeat");
      assert.deepEqual(eventViolations(events), [], JSON.stringify(events));
      return events;
    }

    it("register: legacy top-level settings only without the capability, the user_settings object for both", async () => {
      const legacy = await register("hamlet", { client_capabilities: LEGACY_SETTINGS });
      const modern = await register("hamlet", { client_capabilities: MODERN_CAPABILITIES });
      for (const name of [...LEGACY_DISPLAY_SETTINGS, ...LEGACY_NOTIFICATION_SETTINGS, "timezone"]) {
        assert.equal(legacy[name], legacy.user_settings[name], name);
        assert.ok(!(name in modern), `${name} is not top-level with user_settings_object`);
      }
      assert.deepEqual(legacy.emojiset_choices, [{ key: "google", text: "Google" }, { key: "twitter", text: "Twitter" }, { key: "text", text: "Plain text" }]);
      assert.ok(legacy.available_notification_sounds.includes("zulip") && !legacy.available_notification_sounds.includes("none"));
      assert.deepEqual(modern.user_settings.emojiset_choices, legacy.emojiset_choices);
      assert.deepEqual(modern.realm_user_settings_defaults.available_notification_sounds, legacy.available_notification_sounds);
      // Settings newer than FL 89 exist only in the object.
      assert.ok(!("web_font_size_px" in legacy) && "web_font_size_px" in legacy.user_settings);
    });

    it("register: each legacy event type fetches its own keys, and user_settings only when asked for", async () => {
      const display = await register("hamlet", { fetch_event_types: ["update_display_settings"], client_capabilities: LEGACY_SETTINGS });
      assert.ok("enter_sends" in display && "emojiset_choices" in display && "timezone" in display);
      assert.ok(!("enable_sounds" in display) && !("user_settings" in display));
      const notifications = await register("hamlet", { fetch_event_types: ["update_global_notifications"], client_capabilities: LEGACY_SETTINGS });
      assert.ok("enable_sounds" in notifications && "available_notification_sounds" in notifications && !("enter_sends" in notifications));
      const declared = await register("hamlet", { fetch_event_types: ["update_display_settings", "update_global_notifications"], client_capabilities: MODERN_CAPABILITIES });
      assert.ok(!("enter_sends" in declared) && !("enable_sounds" in declared) && !("user_settings" in declared));
    });

    it("events: a legacy event beside each user_settings update of a pre-FL-89 setting, only without the capability", async () => {
      const legacy = await register("hamlet", { client_capabilities: LEGACY_SETTINGS });
      const modern = await register("hamlet", { client_capabilities: MODERN_CAPABILITIES });
      const onlyNotifications = await register("hamlet", { event_types: ["update_global_notifications"], client_capabilities: {} });
      const othello = await register("othello", { client_capabilities: LEGACY_SETTINGS });
      const changes = { enter_sends: true, enable_sounds: false, default_language: "de", timezone: "Asia/Tokyo", web_font_size_px: 15 };
      assert.equal((await t.as("hamlet").patch("/settings", changes)).status, 200);

      const modernEvents = await drain("hamlet", modern.queue_id);
      assert.deepEqual(modernEvents.filter((e) => e.type !== "realm_user").map((e) => e.type), Array(5).fill("user_settings"));
      const legacyEvents = await drain("hamlet", legacy.queue_id);
      const withoutId = (e: Event): Event => Object.fromEntries(Object.entries(e).filter(([k]) => k !== "id"));
      const legacyOnly = legacyEvents.filter((e) => e.type === "update_display_settings" || e.type === "update_global_notifications").map(withoutId);
      const email = t.users.hamlet.email;
      assert.deepEqual(
        legacyOnly.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
        [
          { type: "update_display_settings", user: email, setting_name: "default_language", setting: "de", language_name: "German" },
          { type: "update_display_settings", user: email, setting_name: "enter_sends", setting: true },
          { type: "update_display_settings", user: email, setting_name: "timezone", setting: "Asia/Tokyo" },
          { type: "update_global_notifications", user: email, notification_name: "enable_sounds", setting: false },
        ],
      );
      assert.equal(legacyEvents.filter((e) => e.type === "user_settings").length, 5);
      const language = modernEvents.find((e) => e.property === "default_language");
      assert.equal(language?.language_name, "German");
      const narrow = await drain("hamlet", onlyNotifications.queue_id);
      assert.deepEqual(narrow.map((e) => [e.type, e.notification_name]), [["update_global_notifications", "enable_sounds"]]);
      assert.deepEqual(await drain("othello", othello.queue_id).then((events) => events.filter((e) => e.type !== "realm_user")), []);
    });

    it("events: away in POST /users/me/status changes presence_enabled, a legacy notification setting", async () => {
      const legacy = await register("hamlet", { client_capabilities: LEGACY_SETTINGS });
      assert.equal((await t.as("hamlet").post("/users/me/status", { away: true })).status, 200);
      const events = await drain("hamlet", legacy.queue_id);
      const legacyEvent = events.find((e) => e.type === "update_global_notifications");
      assert.deepEqual(legacyEvent && { name: legacyEvent.notification_name, setting: legacyEvent.setting }, { name: "presence_enabled", setting: false });
      assert.equal((await t.as("hamlet").post("/users/me/status", { away: false })).status, 200);
    });

    it("subscriptions: null notification settings become the user's global values without notification_settings_null", async () => {
      assert.equal((await t.as("othello").patch("/settings", { enable_stream_desktop_notifications: true, enable_stream_push_notifications: false })).status, 200);
      const audible = { stream_id: veronaId, property: "audible_notifications", value: true };
      assert.equal((await t.as("othello").post("/users/me/subscriptions/properties", { subscription_data: [audible] })).status, 200);
      const subscriptionOf = (state: State) => (state.subscriptions as State[]).find((s) => s.stream_id === veronaId) as State;
      const pick = (sub: State) => Object.fromEntries(NOTIFICATIONS.map((name) => [name, sub[name]]));

      const modern = subscriptionOf(await register("othello", { client_capabilities: MODERN_CAPABILITIES }));
      assert.deepEqual(pick(modern), { desktop_notifications: null, audible_notifications: true, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null });
      const legacy = subscriptionOf(await register("othello", { client_capabilities: LEGACY_SUBSCRIPTIONS }));
      // wildcard_mentions_notify stays null: Zulip resolves only the four older settings.
      assert.deepEqual(pick(legacy), { desktop_notifications: true, audible_notifications: true, push_notifications: false, email_notifications: false, wildcard_mentions_notify: null });
      const bare = subscriptionOf(await register("othello", { event_types: ["subscription"] }));
      assert.deepEqual(pick(bare), pick(legacy), "no capabilities at all is the legacy behaviour");

      // Unsubscribed channels are resolved too; never-subscribed ones have no personal settings.
      assert.equal((await t.as("othello").delete("/users/me/subscriptions", { subscriptions: ["Verona"] })).status, 200);
      const after = await register("othello", { client_capabilities: LEGACY_SUBSCRIPTIONS });
      assert.equal((after.unsubscribed as State[]).find((s) => s.stream_id === veronaId)?.desktop_notifications, true);
      // As in Zulip, events are never rewritten: a subscription add carries the stored nulls.
      const queue = await register("othello", { client_capabilities: LEGACY_SUBSCRIPTIONS });
      assert.equal((await t.as("othello").post("/users/me/subscriptions", { subscriptions: [{ name: "Verona" }] })).status, 200);
      const added = (await drain("othello", queue.queue_id)).find((e) => e.type === "subscription" && e.op === "add");
      assert.equal(added?.subscriptions[0].desktop_notifications, null);
    });
  });
}
