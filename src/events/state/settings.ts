/**
 * Personal settings for POST /register: the `user_settings` object for clients with the
 * user_settings_object capability, and the legacy top-level keys for older clients.
 */
import { mergeSettings } from "../../lib/user-settings.js";
import type { Tx } from "../../store/db.js";
import { getRealmUserDefaults } from "../../store/realms.js";
import type { UserRow } from "../../store/types.js";

export function userSettingsState(user: UserRow, userSettingsObject: boolean): Record<string, unknown> {
  const settings = { ...mergeSettings(user.settings), timezone: user.timezone };
  return userSettingsObject ? { user_settings: settings } : { ...settings, user_settings: settings };
}

export async function realmUserDefaultsState(tx: Tx, realmId: number): Promise<Record<string, unknown>> {
  return { realm_user_settings_defaults: mergeSettings(await getRealmUserDefaults(tx, realmId)) };
}
