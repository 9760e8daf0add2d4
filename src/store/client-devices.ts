/**
 * SQL for logged-in client devices (Zulip's Device, FL 468; migration 0009) and the E2EE push
 * registration each one carries.
 */
import type { Selectable, Updateable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type ClientDeviceRow = Selectable<DB["client_devices"]>;
export type ClientDeviceUpdate = Updateable<DB["client_devices"]>;

export async function insertClientDevice(tx: Tx, userId: number, now: number): Promise<number> {
  const row = await tx.db.insertInto("client_devices").values({ user_id: userId, date_created: now }).returning("id").executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The user's device with this id, if the user has one. */
export async function getClientDevice(tx: Tx, userId: number, id: number): Promise<ClientDeviceRow | undefined> {
  return tx.db.selectFrom("client_devices").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
}

export async function listClientDevices(tx: Tx, userId: number): Promise<ClientDeviceRow[]> {
  return tx.db.selectFrom("client_devices").selectAll().where("user_id", "=", userId).orderBy("id").execute();
}

export async function updateClientDevice(tx: Tx, id: number, changes: ClientDeviceUpdate): Promise<void> {
  await tx.db.updateTable("client_devices").set(changes).where("id", "=", id).execute();
}

/** Removes the user's device; returns whether there was one. */
export async function deleteClientDevice(tx: Tx, userId: number, id: number): Promise<boolean> {
  const result = await tx.db.deleteFrom("client_devices").where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Removes every device of the user (a new API key, FL 492); returns their ids. */
export async function deleteClientDevicesOfUser(tx: Tx, userId: number): Promise<number[]> {
  const rows = await tx.db.deleteFrom("client_devices").where("user_id", "=", userId).returning("id").execute();
  return rows.map((row) => Number(row.id));
}
