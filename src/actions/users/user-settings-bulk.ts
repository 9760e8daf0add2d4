/**
 * PATCH /settings with `target_users` (FL 444): an administrator changes personal settings of other
 * users, e.g. to reset them to the organization's defaults (Zulip's json_change_settings,
 * zerver/views/user_settings.py; API doc update-settings). The targets are the users named plus
 * every member of the groups named, at any depth; bots are left out (their settings mean nothing)
 * and deactivated users are kept, so they come back with the new values. With
 * `skip_if_already_edited`, a user who once changed a setting themselves keeps their choice for that
 * setting (the record is store/user-setting-edits.ts, written by updateOwnSettings).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError, mustBeAdmin } from "../../errors.js";
import type { UserSettings } from "../../lib/user-settings.js";
import { mergeSettings } from "../../lib/user-settings.js";
import * as v from "../../lib/validate.js";
import { isRealmAdmin } from "../../policy/roles.js";
import { transaction, type Tx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getNamedGroupsByIds, getRecursiveMemberIdsOfGroups } from "../../store/user-groups.js";
import { editKey, settingEditsOf } from "../../store/user-setting-edits.js";
import { getUsersByIds } from "../../store/users.js";
import { checkHumanCaller } from "../caller-checks.js";
import { applySettingChanges, checkSettingValues } from "./user-settings.js";

export interface TargetUsers {
  userIds: number[];
  groupIds: number[];
  skipIfAlreadyEdited: boolean;
}

/**
 * Zulip's UserBaseSettings.SECURITY_SENSITIVE_USER_SETTINGS: privacy and notification-email
 * choices an administrator may not make for someone else.
 */
export const SECURITY_SENSITIVE_USER_SETTINGS: ReadonlySet<string> = new Set([
  "allow_private_data_export", "email_address_visibility", "enable_digest_emails", "enable_login_emails",
  "enable_marketing_emails", "presence_enabled", "send_private_typing_notifications", "send_read_receipts",
  "send_stream_typing_notifications",
]);

const cannotChangeForOthers = () => new ApiError("Cannot change this setting for other users.");

const targetShape = v.object({
  user_ids: v.optionalField(v.listOf(v.int)),
  group_ids: v.optionalField(v.listOf(v.int)),
  skip_if_already_edited: v.field(v.bool),
});

/**
 * The `target_users` parameter: a JSON object (Zulip's TargetUsersData, a pydantic model that
 * ignores keys it does not know) naming users, groups or both.
 */
export function checkTargetUsersParam(value: unknown, name: string): TargetUsers {
  const known = typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter(([key]) => key === "user_ids" || key === "group_ids" || key === "skip_if_already_edited"))
    : value;
  const parsed = targetShape(known, name);
  const target = { userIds: parsed.user_ids ?? [], groupIds: parsed.group_ids ?? [], skipIfAlreadyEdited: parsed.skip_if_already_edited };
  if (target.userIds.length === 0 && target.groupIds.length === 0) throw new ApiError("Either user_ids or group_ids must be provided.");
  return target;
}

export interface BulkSettingsInput {
  target: TargetUsers;
  settings: UserSettings;
  /** Parameters that are not settings of others: a password change refuses the whole call. */
  newPassword?: string;
}

/** The human users the target names (ids naming nobody in the realm are an error). */
async function resolveTargets(tx: Tx, realm: RealmRow, target: TargetUsers): Promise<UserRow[]> {
  // Sets, not nested scans: a request may name tens of thousands of ids.
  const groupIds = new Set((await getNamedGroupsByIds(tx, realm.id, target.groupIds)).map((g) => g.id));
  const missingGroup = target.groupIds.find((id) => !groupIds.has(id));
  if (missingGroup !== undefined) throw new ApiError(`Invalid user group ID: ${missingGroup}`);
  const named = await getUsersByIds(tx, realm.id, target.userIds);
  const namedIds = new Set(named.map((u) => u.id));
  const missingUser = target.userIds.find((id) => !namedIds.has(id));
  if (missingUser !== undefined) throw new ApiError(`Invalid user ID: ${missingUser}`);
  const memberIds = await getRecursiveMemberIdsOfGroups(tx, target.groupIds);
  const users = [...named, ...(await getUsersByIds(tx, realm.id, memberIds.filter((id) => !namedIds.has(id))))];
  return users.filter((u) => !u.is_bot).sort((a, b) => a.id - b.id);
}

/** PATCH /settings for other users: every check first, then one transaction. */
export async function updateSettingsForUsers(deps: AppDeps, realm: RealmRow, actor: UserRow, input: BulkSettingsInput): Promise<void> {
  checkHumanCaller(actor);
  if (!isRealmAdmin(actor)) throw mustBeAdmin();
  if (input.newPassword !== undefined || input.settings.timezone !== undefined) throw cannotChangeForOthers();
  if (Object.keys(input.settings).some((name) => SECURITY_SENSITIVE_USER_SETTINGS.has(name))) throw cannotChangeForOthers();
  checkSettingValues(input.settings);
  const requested = Object.entries(input.settings);
  await transaction(deps.store, async (tx) => {
    const users = await resolveTargets(tx, realm, input.target);
    const edited = input.target.skipIfAlreadyEdited
      ? await settingEditsOf(tx, users.map((u) => u.id), requested.map(([name]) => name))
      : new Set<string>();
    for (const user of users) {
      const current = mergeSettings(user.settings);
      const changed = requested.filter(([name, value]) => !edited.has(editKey(user.id, name)) && current[name] !== value);
      // Zulip tells who changed a setting by the audit log's acting user: an administrator among
      // the targets has changed their own setting.
      await applySettingChanges(deps, tx, realm, user, changed, { ownChoice: user.id === actor.id });
    }
  });
}
