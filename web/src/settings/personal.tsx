/**
 * The personal settings pages, for every user: profile (name, status, custom profile fields),
 * account and privacy (password, privacy settings), preferences and notifications. Settings go
 * through PATCH /settings; the server's user_settings and realm_user events bring the new values
 * back into the client state.
 */
import { useState } from "preact/hooks";
import { me } from "../state/client-state";
import { useClientState, useSession } from "../session";
import { Field, FormActions, useAction } from "./controls";
import { ProfileFieldsForm } from "./profile-fields-form";
import { NOTIFICATION_GROUPS, PREFERENCE_GROUPS, PRIVACY_GROUPS, type SettingGroup, type SettingValue } from "./setting-defs";
import { ApiKeyCard } from "./api-key";
import { DesktopPermission } from "./desktop-permission";
import { SettingsForm } from "./settings-form";
import { StatusForm } from "./status-form";

function FullNameForm() {
  const session = useSession();
  const fullName = useClientState((s) => me(s)?.full_name ?? "");
  const locked = useClientState((s) => Boolean(s.realm.realm_name_changes_disabled) && (me(s)?.role ?? 400) > 200);
  const [name, setName] = useState(fullName);
  const action = useAction();
  return (
    <form
      class="settings-card"
      aria-labelledby="name-title"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(() => session.api.patch("/settings", { full_name: name.trim() }), "Name changed");
      }}
    >
      <h2 id="name-title">Name</h2>
      <Field id="full-name" label="Full name" hint={locked ? "Name changes are disabled in this organization." : undefined}>
        <input id="full-name" type="text" autoComplete="name" required maxLength={100} value={name} disabled={locked} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      </Field>
      <FormActions label="Save name" state={action.state} disabled={locked || name.trim() === fullName} />
    </form>
  );
}

export function ProfilePage() {
  return (
    <>
      <FullNameForm />
      <StatusForm />
      <ProfileFieldsForm />
    </>
  );
}

function PasswordForm() {
  const session = useSession();
  const [oldPassword, setOld] = useState("");
  const [newPassword, setNew] = useState("");
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const done = await action.run(() => session.api.patch("/settings", { old_password: oldPassword, new_password: newPassword }), "Password changed");
    if (done) {
      setOld("");
      setNew("");
    }
  };
  return (
    <form class="settings-card" aria-labelledby="password-title" onSubmit={(e) => void submit(e)}>
      <h2 id="password-title">Password</h2>
      <div class="settings-row">
        <Field id="old-password" label="Current password">
          <input id="old-password" type="password" autoComplete="current-password" required value={oldPassword} onInput={(e) => setOld((e.currentTarget as HTMLInputElement).value)} />
        </Field>
        <Field id="new-password" label="New password">
          <input id="new-password" type="password" autoComplete="new-password" required value={newPassword} onInput={(e) => setNew((e.currentTarget as HTMLInputElement).value)} />
        </Field>
      </div>
      <FormActions label="Change password" state={action.state} />
    </form>
  );
}

/** Personal settings saved one at a time with PATCH /settings. */
function OwnSettings({ groups, idPrefix }: { groups: readonly SettingGroup[]; idPrefix: string }) {
  const session = useSession();
  const values = useClientState((s) => s.userSettings);
  const save = (change: Record<string, SettingValue>) => session.api.patch("/settings", change);
  return <SettingsForm groups={groups} values={values} save={save} idPrefix={idPrefix} />;
}

export function AccountPage() {
  const email = useClientState((s) => me(s)?.delivery_email || me(s)?.email || "");
  return (
    <>
      <section class="settings-card" aria-labelledby="email-title">
        <h2 id="email-title">Account</h2>
        <p>
          Email: <strong>{email}</strong>
        </p>
      </section>
      <PasswordForm />
      <ApiKeyCard />
      <OwnSettings groups={PRIVACY_GROUPS} idPrefix="privacy" />
    </>
  );
}

export const PreferencesPage = () => <OwnSettings groups={PREFERENCE_GROUPS} idPrefix="preferences" />;

export const NotificationsPage = () => (
  <>
    <DesktopPermission />
    <OwnSettings groups={NOTIFICATION_GROUPS} idPrefix="notifications" />
  </>
);
