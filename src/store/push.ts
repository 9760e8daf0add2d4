/**
 * SQL for legacy mobile push token registrations (add/remove-apns-token, add/remove-fcm-token;
 * migration 0003): `kind` is "apns" or "fcm", `token` the platform token, `app_id` the iOS app id
 * (APNs only). E2EE registrations (FL 468) live on the client devices (store/client-devices.ts);
 * the table's old "e2ee" rows, of the FL 406 protocol, were dropped by migration 0009.
 */
import type { Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type PushDeviceRow = Selectable<DB["push_devices"]>;
export type PushDeviceKind = "apns" | "fcm";

export interface PushDeviceInput {
  userId: number;
  kind: PushDeviceKind;
  token: string;
  appId: string | null;
  now: number;
}

/** Adds the registration, or refreshes its app id when the same token is registered again. */
export async function upsertPushDevice(tx: Tx, d: PushDeviceInput): Promise<number> {
  const row = await tx.db
    .insertInto("push_devices")
    .values({ user_id: d.userId, kind: d.kind, token: d.token, app_id: d.appId, public_key: null, date_created: d.now })
    .onConflict((oc) => oc.columns(["user_id", "kind", "token"]).doUpdateSet({ app_id: d.appId }))
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Removes the user's registration of this token; returns whether there was one. */
export async function deletePushDevice(tx: Tx, userId: number, kind: PushDeviceKind, token: string): Promise<boolean> {
  const result = await tx.db
    .deleteFrom("push_devices")
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .where("token", "=", token)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The user's registrations of one kind, or of both. */
export async function listPushDevices(tx: Tx, userId: number, kind?: PushDeviceKind): Promise<PushDeviceRow[]> {
  let q = tx.db.selectFrom("push_devices").selectAll().where("user_id", "=", userId);
  if (kind !== undefined) q = q.where("kind", "=", kind);
  return q.orderBy("id").execute();
}

export async function deletePushDevicesByIds(tx: Tx, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await tx.db.deleteFrom("push_devices").where("id", "in", [...ids]).execute();
}
