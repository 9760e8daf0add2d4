/**
 * The realm's custom profile fields (Zulip's create/update/delete/reorder-custom-profile-field):
 * administrators define fields of the eight types of policy/profile-fields; everyone hears of any
 * change as the full list (custom_profile_fields event).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  FIELD_TYPES,
  MAX_SUMMARY_FIELDS,
  canShowInSummary,
  checkFieldData,
  checkFieldNameAndHint,
  isDefaultExternalField,
  parseFieldData,
  storedFieldData,
  type FieldData,
} from "../../policy/profile-fields.js";
import { transaction, type Tx } from "../../store/db.js";
import {
  countSummaryFields,
  deleteProfileField,
  getProfileField,
  getProfileFieldByName,
  insertProfileField,
  listProfileFields,
  updateProfileField,
  type ProfileFieldRow,
} from "../../store/profile-fields.js";
import type { RealmRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";
import { fieldNotFound } from "./profile-data.js";

export function presentProfileField(field: ProfileFieldRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: field.id,
    name: field.name,
    type: field.field_type,
    hint: field.hint,
    field_data: field.field_data,
    order: field.order,
    required: field.required,
    editable_by_user: field.editable_by_user,
    // Whether clients match users by this field's values (FL 455).
    use_for_user_matching: field.use_for_user_matching,
  };
  if (field.display_in_profile_summary) out.display_in_profile_summary = true;
  return out;
}

export async function listProfileFieldsForApi(tx: Tx, realmId: number): Promise<Record<string, unknown>[]> {
  return (await listProfileFields(tx, realmId)).map(presentProfileField);
}

async function publishFields(deps: AppDeps, tx: Tx, realmId: number): Promise<void> {
  const event = { type: "custom_profile_fields", fields: await listProfileFieldsForApi(tx, realmId) };
  publishOnCommit(tx, deps.events, event, await listActiveUserIds(tx, realmId));
}

export interface FieldInput {
  name?: string;
  hint?: string;
  fieldData?: FieldData;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
  useForUserMatching?: boolean;
}

/** Zulip's validate_custom_profile_field: data for the type, then the label, then the type itself. */
function checkFieldDefinition(fieldType: number, name: string, hint: string, data: FieldData, inSummary: boolean): void {
  checkFieldData(fieldType, data);
  if (!isDefaultExternalField(fieldType, data)) checkFieldNameAndHint(name, hint);
  if (!FIELD_TYPES.includes(fieldType)) throw new ApiError("Invalid field type.");
  if (inSummary && !canShowInSummary(fieldType)) throw new ApiError("Field type not supported for display in profile summary.");
}

async function checkSummaryLimit(tx: Tx, realmId: number, wanted: boolean | undefined, exceptId?: number): Promise<void> {
  if (wanted && (await countSummaryFields(tx, realmId, exceptId)) >= MAX_SUMMARY_FIELDS) {
    throw new ApiError(`Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);
  }
}

async function checkNameFree(tx: Tx, realmId: number, name: string, exceptId?: number): Promise<void> {
  const existing = await getProfileFieldByName(tx, realmId, name);
  if (existing && existing.id !== exceptId) throw new ApiError("A field with that label already exists.");
}

/** POST /realm/profile_fields; returns the new field's id. */
export async function createProfileField(deps: AppDeps, realm: RealmRow, fieldType: number, input: FieldInput): Promise<number> {
  return transaction(deps.store, async (tx) => {
    const data = input.fieldData ?? {};
    await checkSummaryLimit(tx, realm.id, input.displayInProfileSummary);
    let name = (input.name ?? "").trim();
    let hint = input.hint ?? "";
    checkFieldDefinition(fieldType, name, hint, data, input.displayInProfileSummary ?? false);
    let stored = data;
    if (isDefaultExternalField(fieldType, data)) {
      const preset = DEFAULT_EXTERNAL_ACCOUNTS[String(data.subtype)];
      ({ name, hint } = preset);
      stored = { subtype: data.subtype };
    }
    await checkNameFree(tx, realm.id, name);
    const id = await insertProfileField(tx, {
      realm_id: realm.id,
      name,
      hint,
      field_type: fieldType,
      field_data: storedFieldData(fieldType, stored),
      display_in_profile_summary: input.displayInProfileSummary ?? false,
      required: input.required ?? false,
      editable_by_user: input.editableByUser ?? true,
      use_for_user_matching: input.useForUserMatching ?? false,
    });
    await publishFields(deps, tx, realm.id);
    return id;
  });
}

/** PATCH /realm/profile_fields/{field_id}: only passed properties change. */
export async function updateProfileFieldDefinition(deps: AppDeps, realm: RealmRow, fieldId: number, input: FieldInput): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const field = await getProfileField(tx, realm.id, fieldId);
    if (!field) throw fieldNotFound(fieldId);
    await checkSummaryLimit(tx, realm.id, input.displayInProfileSummary, field.id);
    const currentData = parseFieldData(field.field_data);
    const name = input.name?.trim();
    const changesLabel =
      (name !== undefined && name !== field.name) ||
      (input.hint !== undefined && input.hint !== field.hint) ||
      (input.fieldData !== undefined && JSON.stringify(input.fieldData) !== JSON.stringify(currentData));
    if (isDefaultExternalField(field.field_type, currentData) && changesLabel) throw new ApiError("Default custom field cannot be updated.");
    const data = input.fieldData ?? currentData;
    const inSummary = input.displayInProfileSummary ?? field.display_in_profile_summary;
    checkFieldDefinition(field.field_type, name ?? field.name, input.hint ?? field.hint, data, inSummary);
    if (name !== undefined) await checkNameFree(tx, realm.id, name, field.id);
    await updateProfileField(tx, field.id, {
      ...(name !== undefined && { name }),
      ...(input.hint !== undefined && { hint: input.hint }),
      ...(input.fieldData !== undefined && { field_data: storedFieldData(field.field_type, input.fieldData) }),
      ...(input.displayInProfileSummary !== undefined && { display_in_profile_summary: input.displayInProfileSummary }),
      ...(input.required !== undefined && { required: input.required }),
      ...(input.editableByUser !== undefined && { editable_by_user: input.editableByUser }),
      ...(input.useForUserMatching !== undefined && { use_for_user_matching: input.useForUserMatching }),
    });
    await publishFields(deps, tx, realm.id);
  });
}

/** DELETE /realm/profile_fields/{field_id}: the field and every user's value for it. */
export async function deleteProfileFieldDefinition(deps: AppDeps, realm: RealmRow, fieldId: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const field = await getProfileField(tx, realm.id, fieldId);
    if (!field) throw fieldNotFound(fieldId);
    await deleteProfileField(tx, field.id);
    await publishFields(deps, tx, realm.id);
  });
}

/** PATCH /realm/profile_fields: `order` must name every field of the realm. */
export async function reorderProfileFields(deps: AppDeps, realm: RealmRow, order: readonly number[]): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const fields = await listProfileFields(tx, realm.id);
    if (fields.some((f) => !order.includes(f.id))) throw new ApiError("Invalid order mapping.");
    for (const field of fields) await updateProfileField(tx, field.id, { order: order.indexOf(field.id) + 1 });
    await publishFields(deps, tx, realm.id);
  });
}
