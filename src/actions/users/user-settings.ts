/**
 * A user's own settings (Zulip's PATCH /settings) and the value checks it shares with the realm's
 * defaults (spec 4.2). Each changed setting is announced to the user (user_settings update, and
 * Zulip's legacy settings events for older clients: events/user-settings-events.ts); changes
 * others can see (name, time zone, email visibility) to everyone (realm_user update).
 */
import { MIN_PASSWORD_LENGTH } from "../auth/passwords.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { publishUserSettingChange } from "../../events/user-settings-events.js";
import { cancelForSettings } from "../notifications/withdraw.js";
import { verifyPassword, hashPassword } from "../../lib/secrets.js";
import { NOTIFICATION_SOUNDS, mergeSettings, type UserSettings } from "../../lib/user-settings.js";
import { apiEmailFor, fakeEmailDomain } from "../../policy/email-visibility.js";
import { transaction, type Tx } from "../../store/db.js";
import { deleteDraftsOfUser } from "../../store/drafts.js";
import { recordSettingEdits } from "../../store/user-setting-edits.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { updateUser } from "../../store/users.js";
import { userIdsWhoCanAccess } from "../../access/users.js";
import { doChangeFullName } from "./user-admin.js";
import { publishDeliveryEmailChanges, publishUserUpdate } from "./user-events.js";
import { checkHumanCaller } from "../caller-checks.js";
import { checkFullName } from "./users.js";
import { publishExportConsent } from "../realm-export/consent-events.js";

const WEEK = 7 * 24 * 60 * 60;

function isTimeZone(name: string): boolean {
  if (name === "" || Intl.supportedValuesOf("timeZone").includes(name)) return true;
  try {
    // Intl's list holds canonical names only; older aliases (e.g. "US/Pacific") are valid too.
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Checks that need Zulip's own messages (the parameter declarations check types and enums). */
export function checkSettingValues(settings: UserSettings): void {
  const sound = settings.notification_sound;
  if (sound !== undefined && !NOTIFICATION_SOUNDS.includes(String(sound))) throw new ApiError(`Invalid notification sound '${sound}'`);
  const period = settings.email_notifications_batching_period_seconds;
  if (period !== undefined && (Number(period) <= 0 || Number(period) > WEEK)) {
    throw new ApiError(`Invalid email batching period: ${period} seconds`);
  }
  const language = settings.default_language;
  if (language !== undefined && !/^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$/.test(String(language))) throw new ApiError("Invalid default_language");
  if (settings.timezone !== undefined && !isTimeZone(String(settings.timezone))) throw new ApiError("timezone is not a recognized time zone");
}

export interface OwnSettingsInput {
  fullName?: string;
  oldPassword?: string;
  newPassword?: string;
  settings: UserSettings;
}

async function checkPasswordChange(user: UserRow, input: OwnSettingsInput): Promise<string | undefined> {
  if (input.newPassword === undefined) return undefined;
  if (!(await verifyPassword(user.password_hash, input.oldPassword ?? ""))) throw new ApiError("Wrong password!");
  if ([...input.newPassword].length < MIN_PASSWORD_LENGTH) throw new ApiError("New password is too weak!");
  return hashPassword(input.newPassword);
}

async function doChangeTimezone(deps: AppDeps, tx: Tx, user: UserRow, timezone: string): Promise<void> {
  await updateUser(tx, user.id, { timezone });
  await publishUserUpdate(deps, tx, user.realm_id, { user_id: user.id, email: user.email, timezone });
}

/** email_address_visibility also decides the API email; everyone learns the new one. */
async function doChangeEmailVisibility(deps: AppDeps, tx: Tx, realm: RealmRow, before: UserRow, settings: string, visibility: number): Promise<void> {
  const email = apiEmailFor(before, visibility, fakeEmailDomain(deps.config, realm.string_id));
  await updateUser(tx, before.id, { email });
  await publishDeliveryEmailChanges(deps, tx, before, { ...before, email, settings });
  if (email !== before.email) await publishUserUpdate(deps, tx, realm.id, { user_id: before.id, new_email: email });
}

/** PATCH /settings: only the passed settings change; every check runs before the first write. */
export async function updateOwnSettings(deps: AppDeps, realm: RealmRow, user: UserRow, input: OwnSettingsInput): Promise<void> {
  checkHumanCaller(user);
  checkSettingValues(input.settings);
  const passwordHash = await checkPasswordChange(user, input);
  const fullName = input.fullName !== undefined && input.fullName !== user.full_name ? checkFullName(input.fullName) : undefined;
  await transaction(deps.store, async (tx) => {
    if (passwordHash !== undefined) await updateUser(tx, user.id, { password_hash: passwordHash });
    if (fullName !== undefined && fullName !== user.full_name) await doChangeFullName(deps, tx, user, fullName);
    const { timezone, ...rest } = input.settings;
    if (timezone !== undefined && timezone !== user.timezone) {
      await doChangeTimezone(deps, tx, user, String(timezone));
      publishUserSettingChange(tx, deps.events, user, "timezone", timezone);
    }
    const current = mergeSettings(user.settings);
    const changed = Object.entries(rest).filter(([name, value]) => current[name] !== value);
    await applySettingChanges(deps, tx, realm, user, changed, { ownChoice: true });
  });
}

/**
 * Writes `changed` into the user's stored settings and makes every effect of each change: pending
 * notifications withdrawn, the user_settings event, and what a setting carries with it (drafts,
 * email visibility, export consent, the legacy `away` status). `ownChoice`: the user made these
 * choices themselves (recorded for PATCH /settings skip_if_already_edited, FL 444); an
 * administrator's bulk change for others (user-settings-bulk.ts) is not.
 */
export async function applySettingChanges(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  user: UserRow,
  changed: ReadonlyArray<[string, boolean | number | string]>,
  opts: { ownChoice: boolean },
): Promise<void> {
  if (changed.length === 0) return;
  const stored = JSON.parse(user.settings) as UserSettings;
  for (const [name, value] of changed) stored[name] = value;
  const settings = JSON.stringify(stored);
  await updateUser(tx, user.id, { settings });
  if (opts.ownChoice) await recordSettingEdits(tx, user.id, changed.map(([name]) => name));
  await cancelForSettings(tx, user.id, changed);
  for (const [property, value] of changed) {
    publishUserSettingChange(tx, deps.events, user, property, value);
    if (property === "enable_drafts_synchronization" && value === false) await deleteDraftsOfUser(tx, user.id);
    if (property === "email_address_visibility") await doChangeEmailVisibility(deps, tx, realm, user, settings, Number(value));
    if (property === "allow_private_data_export") await publishExportConsent(deps, tx, user, value === true);
    // `away` in user_status is the deprecated inverse of presence_enabled (FL 148): clients
    // that read it hear of the change as they would from POST /users/me/status.
    if (property === "presence_enabled") {
      publishOnCommit(tx, deps.events, { type: "user_status", user_id: user.id, away: value === false }, await userIdsWhoCanAccess(tx, user));
    }
  }
}
