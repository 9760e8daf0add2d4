/**
 * Personal settings for POST /register: the `user_settings` object, and for clients without the
 * user_settings_object capability the legacy top-level keys of the `update_display_settings` and
 * `update_global_notifications` event types (Zulip's fetch_initial_state_data; user-settings-events.ts).
 */
import { mergeSettings } from "../../lib/user-settings.js";
import type { Tx } from "../../store/db.js";
import { getRealmUserDefaults } from "../../store/realms.js";
import type { UserRow } from "../../store/types.js";
import { AVAILABLE_NOTIFICATION_SOUNDS, EMOJISET_CHOICES, LEGACY_DISPLAY_SETTINGS, LEGACY_NOTIFICATION_SETTINGS } from "../user-settings-events.js";

/** The choices clients offer for emojiset and notification_sound, listed with the settings since FL 89. */
const SETTING_CHOICES = { emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS };

export function userSettingsState(user: UserRow): Record<string, unknown> {
  return { user_settings: { ...mergeSettings(user.settings), timezone: user.timezone, ...SETTING_CHOICES } };
}

function pick(user: UserRow, names: readonly string[]): Record<string, unknown> {
  const settings = mergeSettings(user.settings);
  return Object.fromEntries(names.map((name) => [name, settings[name]]));
}

/** Legacy display settings as top-level keys, with the emoji sets and the time zone. */
export function legacyDisplaySettingsState(user: UserRow): Record<string, unknown> {
  return { ...pick(user, LEGACY_DISPLAY_SETTINGS), emojiset_choices: EMOJISET_CHOICES, timezone: user.timezone };
}

/** Legacy notification settings as top-level keys, with the available sounds. */
export function legacyNotificationSettingsState(user: UserRow): Record<string, unknown> {
  return { ...pick(user, LEGACY_NOTIFICATION_SETTINGS), available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS };
}

export async function realmUserDefaultsState(tx: Tx, realmId: number): Promise<Record<string, unknown>> {
  return { realm_user_settings_defaults: { ...mergeSettings(await getRealmUserDefaults(tx, realmId)), ...SETTING_CHOICES } };
}
