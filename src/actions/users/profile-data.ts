/**
 * Users' custom profile field values (spec 4.16; PATCH /users/{id} profile_data of spec 4.11):
 * every entry is checked against its field before anything is written; short and long text are
 * stored with their rendered Markdown. Everyone hears of each change (realm_user update with
 * custom_profile_field).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { FIELD_TYPE, checkFieldValue, isRenderable, userIdsOfValue } from "../../policy/profile-fields.js";
import { isRealmAdmin } from "../../policy/roles.js";
import * as v from "../../lib/validate.js";
import { transaction, type Tx } from "../../store/db.js";
import { deleteProfileValue, getProfileField, getProfileValue, upsertProfileValue, type ProfileFieldRow } from "../../store/profile-fields.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import { renderContent } from "../messages/render.js";
import { publishUserUpdate } from "./user-events.js";
import { checkHumanCaller } from "../caller-checks.js";

export interface ProfileDataEntry {
  id: number;
  value: string | number[] | null;
}

/** One planned change: the stored value, or null to remove the user's value. */
export interface ProfileValueChange {
  field: ProfileFieldRow;
  value: string | null;
}

export const fieldNotFound = (id: number) => new ApiError(`Field id ${id} not found.`);

async function checkUserIds(tx: Tx, realm: RealmRow, value: unknown): Promise<void> {
  const ids = userIdsOfValue(value);
  const users = await getUsersByIds(tx, realm.id, ids);
  const missing = ids.filter((id) => !users.some((u) => u.id === id));
  if (missing.length > 0) throw new ApiError(`Invalid user IDs: ${missing.join(", ")}`);
  for (const user of users) {
    if (!user.is_active) throw new ApiError(`User with ID ${user.id} is deactivated`);
    if (user.is_bot) throw new ApiError(`User with ID ${user.id} is a bot`);
  }
}

/** Looks up a field of the realm the actor may change for themselves (admins may change any). */
export async function accessProfileField(tx: Tx, realm: RealmRow, actor: UserRow, fieldId: number, enforceEditable: boolean): Promise<ProfileFieldRow> {
  const field = await getProfileField(tx, realm.id, fieldId);
  if (!field) throw fieldNotFound(fieldId);
  if (enforceEditable && !field.editable_by_user && !isRealmAdmin(actor)) {
    throw new ApiError("You are not allowed to change this field. Contact an administrator to update it.");
  }
  return field;
}

/**
 * Validates entries: unknown fields, fields the user may not edit (when `enforceEditable`), and
 * values of the wrong shape are refused. Null or empty values mean "remove".
 */
export async function checkProfileData(
  tx: Tx,
  realm: RealmRow,
  actor: UserRow,
  entries: readonly ProfileDataEntry[],
  opts: { enforceEditable: boolean },
): Promise<ProfileValueChange[]> {
  const changes: ProfileValueChange[] = [];
  for (const entry of entries) {
    const field = await accessProfileField(tx, realm, actor, entry.id, opts.enforceEditable);
    if (entry.value === null || entry.value.length === 0) {
      changes.push({ field, value: null });
      continue;
    }
    if (field.field_type === FIELD_TYPE.USER) await checkUserIds(tx, realm, entry.value);
    changes.push({ field, value: checkFieldValue(field, entry.value) });
  }
  return changes;
}

/** Writes the checked changes for `target`; unchanged values are skipped, as are removals of nothing. */
export async function doUpdateProfileData(deps: AppDeps, tx: Tx, realm: RealmRow, target: UserRow, changes: readonly ProfileValueChange[]): Promise<void> {
  for (const { field, value } of changes) {
    const existing = await getProfileValue(tx, target.id, field.id);
    const renderable = isRenderable(field.field_type);
    let rendered: string | null = null;
    if (value === null) {
      if (!existing) continue;
      await deleteProfileValue(tx, target.id, field.id);
    } else {
      if (existing?.value === value) continue;
      if (renderable) {
        rendered = (await renderContent({ tx, realm, config: deps.config, senderId: target.id, content: value })).html;
      }
      await upsertProfileValue(tx, target.id, field.id, value, rendered);
    }
    const custom: Record<string, unknown> = { id: field.id, value };
    // A removed value carries no rendered_value (a string when present: OpenAPI realm_user update).
    if (rendered !== null) custom.rendered_value = rendered;
    await publishUserUpdate(deps, tx, realm.id, { user_id: target.id, custom_profile_field: custom });
  }
}

/** Validator for profile_data / data parameters: [{id, value}] with value text, ids or null. */
export const checkProfileDataParam = v.listOf(
  v.object({
    id: v.field(v.int),
    value: v.field(v.nullable(v.oneOf<string | number[]>(v.str, v.listOf(v.int)))),
  }),
) as v.Validator<ProfileDataEntry[]>;

/** PATCH /users/me/profile_data: humans change their own values, within editable_by_user. */
export async function updateOwnProfileData(deps: AppDeps, realm: RealmRow, user: UserRow, entries: readonly ProfileDataEntry[]): Promise<void> {
  checkHumanCaller(user);
  await transaction(deps.store, async (tx) => {
    const changes = await checkProfileData(tx, realm, user, entries, { enforceEditable: true });
    await doUpdateProfileData(deps, tx, realm, user, changes);
  });
}

/** DELETE /users/me/profile_data: removes the user's values of these fields. */
export async function removeOwnProfileData(deps: AppDeps, realm: RealmRow, user: UserRow, fieldIds: readonly number[]): Promise<void> {
  checkHumanCaller(user);
  await transaction(deps.store, async (tx) => {
    const changes: ProfileValueChange[] = [];
    for (const id of fieldIds) changes.push({ field: await accessProfileField(tx, realm, user, id, true), value: null });
    await doUpdateProfileData(deps, tx, realm, user, changes);
  });
}
