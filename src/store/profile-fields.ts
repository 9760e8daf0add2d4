/** SQL for custom profile fields (the realm's definitions) and users' values for them. */
import { sql, type Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type ProfileFieldRow = Selectable<DB["custom_profile_fields"]>;
type NewProfileField = Omit<ProfileFieldRow, "id">;

export type ProfileData = Record<string, { value: string; rendered_value?: string }>;

export async function listProfileFields(tx: Tx, realmId: number): Promise<ProfileFieldRow[]> {
  return tx.db.selectFrom("custom_profile_fields").selectAll().where("realm_id", "=", realmId).orderBy("order").orderBy("id").execute();
}

export async function getProfileField(tx: Tx, realmId: number, id: number): Promise<ProfileFieldRow | undefined> {
  return tx.db.selectFrom("custom_profile_fields").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

/** Field names are unique per realm, compared case-insensitively as the unique index does (lower() on both sides). */
export async function getProfileFieldByName(tx: Tx, realmId: number, name: string): Promise<ProfileFieldRow | undefined> {
  return tx.db
    .selectFrom("custom_profile_fields")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where(sql<string>`lower(name)`, "=", sql<string>`lower(${name})`)
    .executeTakeFirst();
}

/** Inserts the field at the end of the realm's order. */
export async function insertProfileField(tx: Tx, field: Omit<NewProfileField, "order">): Promise<number> {
  const max = await tx.db
    .selectFrom("custom_profile_fields")
    .select((eb) => eb.fn.max("order").as("m"))
    .where("realm_id", "=", field.realm_id)
    .executeTakeFirst();
  const order = max?.m == null ? 1 : Number(max.m) + 1;
  const row = await tx.db.insertInto("custom_profile_fields").values({ ...field, order }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProfileField(tx: Tx, id: number, changes: Partial<NewProfileField>): Promise<void> {
  await tx.db.updateTable("custom_profile_fields").set(changes).where("id", "=", id).execute();
}

/** Deletes the field and every user's value for it. */
export async function deleteProfileField(tx: Tx, id: number): Promise<void> {
  await tx.db.deleteFrom("custom_profile_field_values").where("field_id", "=", id).execute();
  await tx.db.deleteFrom("custom_profile_fields").where("id", "=", id).execute();
}

export async function countSummaryFields(tx: Tx, realmId: number, exceptId?: number): Promise<number> {
  let q = tx.db
    .selectFrom("custom_profile_fields")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("realm_id", "=", realmId)
    .where("display_in_profile_summary", "=", true);
  if (exceptId !== undefined) q = q.where("id", "!=", exceptId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** `{field_id: {value, rendered_value?}}` per user, for the users given (spec section 2, profile_data). */
export async function getProfileDataForUsers(tx: Tx, userIds: readonly number[]): Promise<Map<number, ProfileData>> {
  const out = new Map<number, ProfileData>(userIds.map((id) => [id, {}]));
  if (userIds.length === 0) return out;
  const rows = await tx.db
    .selectFrom("custom_profile_field_values")
    .select(["user_id", "field_id", "value", "rendered_value"])
    .where("user_id", "in", [...new Set(userIds)])
    .execute();
  for (const r of rows) {
    (out.get(r.user_id) as ProfileData)[String(r.field_id)] =
      r.rendered_value === null ? { value: r.value } : { value: r.value, rendered_value: r.rendered_value };
  }
  return out;
}

export async function getProfileValue(tx: Tx, userId: number, fieldId: number) {
  return tx.db
    .selectFrom("custom_profile_field_values")
    .selectAll()
    .where("user_id", "=", userId)
    .where("field_id", "=", fieldId)
    .executeTakeFirst();
}

export async function upsertProfileValue(tx: Tx, userId: number, fieldId: number, value: string, renderedValue: string | null): Promise<void> {
  await tx.db
    .insertInto("custom_profile_field_values")
    .values({ user_id: userId, field_id: fieldId, value, rendered_value: renderedValue })
    .onConflict((oc) => oc.columns(["user_id", "field_id"]).doUpdateSet({ value, rendered_value: renderedValue }))
    .execute();
}

export async function deleteProfileValue(tx: Tx, userId: number, fieldId: number): Promise<void> {
  await tx.db.deleteFrom("custom_profile_field_values").where("user_id", "=", userId).where("field_id", "=", fieldId).execute();
}
