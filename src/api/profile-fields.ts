/** Custom profile fields (Zulip's *-custom-profile-field endpoints) and your values (spec 4.16). */
import { checkProfileDataParam, removeOwnProfileData, updateOwnProfileData } from "../actions/users/profile-data.js";
import {
  createProfileField,
  deleteProfileFieldDefinition,
  listProfileFieldsForApi,
  reorderProfileFields,
  updateProfileFieldDefinition,
} from "../actions/users/profile-fields.js";
import { invalidParam } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import type { Validator } from "../lib/validate.js";
import type { FieldData } from "../policy/profile-fields.js";
import { readTx } from "../store/db.js";

const dict: Validator<FieldData> = (value, name) => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidParam(`${name} is not a dict`);
  return value as FieldData;
};

export const listFields = endpoint({
  method: "GET",
  path: "/realm/profile_fields",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { custom_fields: await listProfileFieldsForApi(readTx(ctx.deps.store), ctx.realm.id) };
  },
});

export const createField = endpoint({
  method: "POST",
  path: "/realm/profile_fields",
  auth: "admin",
  params: {
    field_type: p.int(),
    name: p.str().default(""),
    hint: p.str().default(""),
    field_data: p.json(dict).optional(),
    display_in_profile_summary: p.bool().default(false),
    required: p.bool().default(false),
    editable_by_user: p.bool().default(true),
    use_for_user_matching: p.bool().default(false),
  },
  async handler(ctx, params) {
    const id = await createProfileField(ctx.deps, ctx.realm, params.field_type, {
      name: params.name,
      hint: params.hint,
      fieldData: params.field_data,
      displayInProfileSummary: params.display_in_profile_summary,
      required: params.required,
      editableByUser: params.editable_by_user,
      useForUserMatching: params.use_for_user_matching,
    });
    return { id };
  },
});

export const reorderFields = endpoint({
  method: "PATCH",
  path: "/realm/profile_fields",
  auth: "admin",
  params: { order: p.intList() },
  async handler(ctx, { order }) {
    await reorderProfileFields(ctx.deps, ctx.realm, order);
  },
});

export const updateField = endpoint({
  method: "PATCH",
  path: "/realm/profile_fields/:field_id",
  auth: "admin",
  params: {
    field_id: p.int().path(),
    name: p.str().optional(),
    hint: p.str().optional(),
    field_data: p.json(dict).optional(),
    display_in_profile_summary: p.bool().optional(),
    required: p.bool().optional(),
    editable_by_user: p.bool().optional(),
    use_for_user_matching: p.bool().optional(),
  },
  async handler(ctx, params) {
    await updateProfileFieldDefinition(ctx.deps, ctx.realm, params.field_id, {
      name: params.name,
      hint: params.hint,
      fieldData: params.field_data,
      displayInProfileSummary: params.display_in_profile_summary,
      required: params.required,
      editableByUser: params.editable_by_user,
      useForUserMatching: params.use_for_user_matching,
    });
  },
});

export const deleteField = endpoint({
  method: "DELETE",
  path: "/realm/profile_fields/:field_id",
  auth: "admin",
  params: { field_id: p.int().path() },
  async handler(ctx, { field_id }) {
    await deleteProfileFieldDefinition(ctx.deps, ctx.realm, field_id);
  },
});

export const updateProfileData = endpoint({
  method: "PATCH",
  path: "/users/me/profile_data",
  auth: "user",
  params: { data: p.json(checkProfileDataParam) },
  async handler(ctx, { data }) {
    await updateOwnProfileData(ctx.deps, ctx.realm, ctx.user, data);
  },
});

export const removeProfileData = endpoint({
  method: "DELETE",
  path: "/users/me/profile_data",
  auth: "user",
  params: { data: p.intList() },
  async handler(ctx, { data }) {
    await removeOwnProfileData(ctx.deps, ctx.realm, ctx.user, data);
  },
});

export const profileFieldEndpoints = [listFields, createField, reorderFields, updateField, deleteField, updateProfileData, removeProfileData];
