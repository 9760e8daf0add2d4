/**
 * The realm's defaults of personal settings for users who join later (spec 4.2): stored in
 * realm_user_defaults.settings and copied into each new account by doCreateUser; existing users
 * never change. Everyone hears of each changed default (realm_user_settings_defaults update).
 */
import type { AppDeps } from "../../deps.js";
import { publishOnCommit } from "../../events/bus.js";
import { mergeSettings, type UserSettings } from "../../lib/user-settings.js";
import { transaction } from "../../store/db.js";
import { getRealmUserDefaults, setRealmUserDefaults } from "../../store/realms.js";
import type { RealmRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";
import { checkSettingValues } from "../users/user-settings.js";

export async function updateRealmUserDefaults(deps: AppDeps, realm: RealmRow, settings: UserSettings): Promise<void> {
  checkSettingValues(settings);
  await transaction(deps.store, async (tx) => {
    const storedText = await getRealmUserDefaults(tx, realm.id);
    const stored = JSON.parse(storedText) as UserSettings;
    const current = mergeSettings(storedText);
    const changed = Object.entries(settings).filter(([name, value]) => current[name] !== value);
    if (changed.length === 0) return;
    for (const [name, value] of changed) stored[name] = value;
    await setRealmUserDefaults(tx, realm.id, JSON.stringify(stored));
    const audience = await listActiveUserIds(tx, realm.id);
    for (const [property, value] of changed) {
      publishOnCommit(tx, deps.events, { type: "realm_user_settings_defaults", op: "update", property, value }, audience);
    }
  });
}
