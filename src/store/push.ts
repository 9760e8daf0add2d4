/**
 * SQL for mobile push devices. One table holds every kind (migration 0003):
 * - "apns" / "fcm": a legacy token registration; `token` is the platform token, `app_id` the iOS
 *   app id (APNs only);
 * - "e2ee": an end-to-end-encrypted registration (`POST /mobile_push/register`); `token` is the
 *   client's push_account_id, `app_id` the token_kind ("fcm" | "apns"), `public_key` the device's
 *   X25519 public key (base64) that notifications are encrypted to.
 */
import type { Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type PushDeviceRow = Selectable<DB["push_devices"]>;
export type PushDeviceKind = "apns" | "fcm" | "e2ee";

export interface PushDeviceInput {
  userId: number;
  kind: PushDeviceKind;
  token: string;
  appId: string | null;
  publicKey: string | null;
  now: number;
}

/** Adds the registration, or refreshes it (app id, key) when the same token is registered again. */
export async function upsertPushDevice(tx: Tx, d: PushDeviceInput): Promise<number> {
  const row = await tx.db
    .insertInto("push_devices")
    .values({ user_id: d.userId, kind: d.kind, token: d.token, app_id: d.appId, public_key: d.publicKey, date_created: d.now })
    .onConflict((oc) => oc.columns(["user_id", "kind", "token"]).doUpdateSet({ app_id: d.appId, public_key: d.publicKey }))
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

/** The user's devices of one kind, optionally only the one with this id. */
export async function listPushDevices(tx: Tx, userId: number, kind: PushDeviceKind, id?: number): Promise<PushDeviceRow[]> {
  let q = tx.db.selectFrom("push_devices").selectAll().where("user_id", "=", userId).where("kind", "=", kind);
  if (id !== undefined) q = q.where("id", "=", id);
  return q.orderBy("id").execute();
}
