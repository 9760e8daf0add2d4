/**
 * Organization › Default user settings (spec 4.2, PATCH /realm/user_settings_defaults): the
 * preferences, notification and privacy settings new users start with. Existing users keep theirs.
 * Values are the register's realm_user_settings_defaults, updated by its events.
 */
import { useClientState, useSession } from "../session";
import { REALM_DEFAULT_GROUPS, type SettingValue } from "./setting-defs";
import { SettingsForm } from "./settings-form";

export function RealmDefaultsAdminPage() {
  const session = useSession();
  const values = useClientState((s) => (s.register.realm_user_settings_defaults ?? {}) as Record<string, unknown>);
  const save = (change: Record<string, SettingValue>) => session.api.patch("/realm/user_settings_defaults", change);
  return (
    <>
      <p class="settings-intro">These settings apply to users who join from now on; they never change existing users' settings.</p>
      <SettingsForm groups={REALM_DEFAULT_GROUPS} values={values} save={save} idPrefix="realm-defaults" />
    </>
  );
}
