/**
 * State equivalence for settings and presence (issue 5): personal settings (PATCH /settings),
 * the realm's defaults for new users, organization settings (PATCH /realm), user status and
 * presence. Personal settings reach only their owner (with Zulip's legacy settings events for
 * clients without user_settings_object); organization-wide changes reach everyone.
 */
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { MODERN_CAPABILITIES, verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: settings, status, presence [${kind}]`, () => {
    let t: TestRealm;
    let channelId: number;
    before(async () => {
      t = await createTestRealm(kind);
      channelId = await createChannel(t, "Verona", ["iago", "hamlet"]);
    });
    after(() => t.close());

    const settings = (params: Record<string, unknown>) => () => t.as("hamlet").patch("/settings", params);
    const realm = (params: Record<string, unknown>) => () => t.as("desdemona").patch("/realm", params);

    it("personal settings reach only their owner", async () => {
      await verifyAction(t, ["hamlet", "othello"], settings({ enter_sends: true, color_scheme: 2, emojiset: "text" }), { expect: { othello: [] } });
      await verifyAction(t, ["hamlet"], settings({ default_language: "de", web_home_view: "inbox" }));
      await verifyAction(t, ["hamlet"], settings({ enable_drafts_synchronization: false }));
    });

    it("clients without user_settings_object keep the legacy top-level keys current too", async () => {
      const legacy = { register: { client_capabilities: { ...MODERN_CAPABILITIES, user_settings_object: false } } };
      await verifyAction(t, ["hamlet", "othello"], settings({ enter_sends: false, high_contrast_mode: true, web_font_size_px: 15 }), { ...legacy, expect: { othello: [] } });
      await verifyAction(t, ["hamlet"], settings({ enable_sounds: false, notification_sound: "ding", default_language: "fr", timezone: "Asia/Tokyo" }), legacy);
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").post("/users/me/status", { away: true }), legacy);
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").post("/users/me/status", { away: false }), legacy);
    });

    it("the time zone also reaches everyone through realm_user", async () => {
      await verifyAction(t, ["hamlet", "othello"], settings({ timezone: "Europe/Oslo" }), { expect: { othello: ["realm_user/update"] } });
    });

    it("turning presence sharing off shows the user as away to everyone", async () => {
      await verifyAction(t, ["hamlet", "othello"], settings({ presence_enabled: false }), { expect: { othello: ["user_status"] } });
      await verifyAction(t, ["hamlet", "othello"], settings({ presence_enabled: true }), { expect: { othello: ["user_status"] } });
    });

    it("the realm's defaults for new users reach everyone", async () => {
      const defaults = (params: Record<string, unknown>) => () => t.as("iago").patch("/realm/user_settings_defaults", params);
      await verifyAction(t, ["hamlet", "polonius"], defaults({ color_scheme: 3, enter_sends: true }), {
        expect: { polonius: ["realm_user_settings_defaults/update", "realm_user_settings_defaults/update"] },
      });
    });

    it("organization settings reach everyone", async () => {
      await verifyAction(t, ["hamlet", "polonius"], realm({ name: "Elsinore", description: "**castle**" }));
      await verifyAction(t, ["hamlet"], realm({ topics_policy: "disable_empty_topic", allow_message_editing: false }));
      await verifyAction(t, ["hamlet"], realm({ message_content_edit_limit_seconds: 600, message_content_delete_limit_seconds: "unlimited" }));
      await verifyAction(t, ["hamlet"], realm({ waiting_period_threshold: 3, invite_required: false, emails_restricted_to_domains: true }));
      await verifyAction(t, ["hamlet"], realm({ message_retention_days: 30 }));
      await verifyAction(t, ["hamlet"], realm({ message_retention_days: "unlimited" }));
      await verifyAction(t, ["hamlet"], realm({ new_stream_announcements_stream_id: channelId, signup_announcements_stream_id: channelId }));
      await verifyAction(t, ["hamlet"], realm({ new_stream_announcements_stream_id: -1 }));
    });

    it("user status: text, emoji, away, cleared", async () => {
      const status = (params: Record<string, unknown>) => () => t.as("hamlet").post("/users/me/status", params);
      await verifyAction(t, ["hamlet", "othello", "polonius"], status({ status_text: "in a meeting", emoji_name: "calendar" }), {
        expect: { othello: ["user_status"], polonius: ["user_status"] },
      });
      await verifyAction(t, ["hamlet", "othello"], status({ away: true }));
      await verifyAction(t, ["hamlet", "othello"], status({ status_text: "", emoji_name: "" }));
      await verifyAction(t, ["hamlet", "othello"], status({ away: false }));
    });

    it("presence updates reach everyone", async () => {
      await verifyAction(t, ["hamlet", "othello", "polonius"], () => t.as("othello").post("/users/me/presence", { status: "active", new_user_input: true }), {
        expect: { hamlet: ["presence"], polonius: ["presence"] },
      });
      // Going idle sends no event (Zulip sends presence only when a user comes online); clients
      // refresh everyone's presence from their own presence pings, so the register's presences
      // are recomputed, not derived from events.
      t.clock.seconds += 120;
      await verifyAction(t, ["hamlet", "othello"], () => t.as("othello").post("/users/me/presence", { status: "idle" }), {
        expect: { hamlet: [] },
        serverRecomputed: ["presences"],
      });
    });
  });
}
