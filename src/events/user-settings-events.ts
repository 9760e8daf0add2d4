/**
 * Personal settings in the events protocol (OpenAPI register and GET /events, zulip-facts section f).
 * Since FL 89 a change is one `user_settings` update and register returns a `user_settings`
 * object. Clients that did not declare the `user_settings_object` capability also get Zulip's
 * legacy shapes: the pre-FL-89 settings as top-level register keys (fetched through the
 * `update_display_settings` and `update_global_notifications` event types) and, for each change
 * of one of them, an `update_display_settings` or `update_global_notifications` event as well.
 */
import { NOTIFICATION_SOUNDS, STRING_USER_SETTINGS } from "../lib/user-settings.js";
import type { Tx } from "../store/db.js";
import { publishOnCommit, type EventBus } from "./bus.js";

/** The client capability that replaces the legacy settings shapes (FL 89). */
export const USER_SETTINGS_OBJECT = "user_settings_object";

/**
 * Zulip's UserProfile.display_settings_legacy: the settings `update_display_settings` carries.
 * dense_mode is left out: Parley has no such setting (Zulip removed it at FL 364, spec section 9).
 */
export const LEGACY_DISPLAY_SETTINGS: readonly string[] = [
  "color_scheme", "default_language", "web_home_view", "demote_inactive_streams", "emojiset",
  "enable_drafts_synchronization", "enter_sends", "fluid_layout_width", "high_contrast_mode",
  "left_side_userlist", "starred_message_counts", "translate_emoticons", "twenty_four_hour_time",
];

/** Zulip's UserProfile.notification_settings_legacy: the settings `update_global_notifications` carries. */
export const LEGACY_NOTIFICATION_SETTINGS: readonly string[] = [
  "desktop_icon_count_display", "email_notifications_batching_period_seconds", "enable_desktop_notifications",
  "enable_digest_emails", "enable_login_emails", "enable_marketing_emails", "enable_offline_email_notifications",
  "enable_offline_push_notifications", "enable_online_push_notifications", "enable_sounds",
  "enable_stream_audible_notifications", "enable_stream_desktop_notifications", "enable_stream_email_notifications",
  "enable_stream_push_notifications", "message_content_in_email_notifications", "notification_sound",
  "pm_content_in_desktop_notifications", "presence_enabled", "realm_name_in_email_notifications_policy",
  "wildcard_mentions_notify",
];

const EMOJISET_NAMES: Record<string, string> = { google: "Google", twitter: "Twitter", text: "Plain text" };

/** Zulip's emojiset_choices: the emoji sets Parley accepts, with their display names. */
export const EMOJISET_CHOICES: ReadonlyArray<{ key: string; text: string }> = (STRING_USER_SETTINGS.emojiset ?? []).map((key) => ({
  key,
  text: EMOJISET_NAMES[key] ?? key,
}));

/** Zulip's available_notification_sounds: the sound files ("none" is a value, not a sound). */
export const AVAILABLE_NOTIFICATION_SOUNDS: readonly string[] = NOTIFICATION_SOUNDS.filter((s) => s !== "none");

const ENGLISH_LANGUAGE_NAMES = new Intl.DisplayNames(["en"], { type: "language", fallback: "code" });

/** The English name of a language code (OpenAPI user_settings `language_name`), e.g. "de" → "German". */
export function languageName(code: string): string {
  try {
    return ENGLISH_LANGUAGE_NAMES.of(code.replace("_", "-")) ?? code;
  } catch {
    return code;
  }
}

/**
 * Announces one changed setting to its owner: `user_settings` update for every client, and the
 * legacy event only to queues without the user_settings_object capability (Zulip's
 * ClientDescriptor drops legacy events for the others). `email` is the owner's API email, which
 * the legacy events name the user by; time zone changes are display settings there.
 */
export function publishUserSettingChange(tx: Tx, bus: EventBus, user: { id: number; email: string }, property: string, value: unknown): void {
  const language = property === "default_language" ? { language_name: languageName(String(value)) } : {};
  publishOnCommit(tx, bus, { type: "user_settings", op: "update", property, value, ...language }, [user.id]);
  const legacy = { user: user.email, setting: value, only_without: USER_SETTINGS_OBJECT };
  if (LEGACY_NOTIFICATION_SETTINGS.includes(property)) {
    publishOnCommit(tx, bus, { type: "update_global_notifications", notification_name: property, ...legacy }, [user.id]);
  }
  if (LEGACY_DISPLAY_SETTINGS.includes(property) || property === "timezone") {
    publishOnCommit(tx, bus, { type: "update_display_settings", setting_name: property, ...legacy, ...language }, [user.id]);
  }
}
