/** SQL for realms (organizations) and their user-settings defaults. */
import type { Tx } from "./db.js";
import type { NewRealm, RealmRow, RealmUpdate } from "./types.js";

export async function getRealmBySubdomain(tx: Tx, subdomain: string): Promise<RealmRow | undefined> {
  return tx.db.selectFrom("realms").selectAll().where("string_id", "=", subdomain).executeTakeFirst();
}

export async function getRealmById(tx: Tx, id: number): Promise<RealmRow | undefined> {
  return tx.db.selectFrom("realms").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function countRealms(tx: Tx): Promise<number> {
  const row = await tx.db.selectFrom("realms").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertRealm(tx: Tx, realm: NewRealm): Promise<number> {
  const row = await tx.db.insertInto("realms").values(realm).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRealm(tx: Tx, id: number, changes: RealmUpdate): Promise<void> {
  await tx.db.updateTable("realms").set(changes).where("id", "=", id).execute();
}

export async function insertRealmUserDefaults(tx: Tx, realmId: number, settings: string): Promise<void> {
  await tx.db.insertInto("realm_user_defaults").values({ realm_id: realmId, settings }).execute();
}

export async function getRealmUserDefaults(tx: Tx, realmId: number): Promise<string> {
  const row = await tx.db
    .selectFrom("realm_user_defaults")
    .select("settings")
    .where("realm_id", "=", realmId)
    .executeTakeFirst();
  return row?.settings ?? "{}";
}

export async function insertAuditLog(
  tx: Tx,
  entry: {
    realm_id: number;
    event_type: string;
    event_time: number;
    acting_user_id?: number | null;
    modified_user_id?: number | null;
    modified_channel_id?: number | null;
    modified_group_id?: number | null;
    extra_data?: Record<string, unknown>;
  },
): Promise<void> {
  await tx.db
    .insertInto("audit_log")
    .values({ ...entry, extra_data: JSON.stringify(entry.extra_data ?? {}) })
    .execute();
}

export async function setRealmUserDefaults(tx: Tx, realmId: number, settings: string): Promise<void> {
  await tx.db.updateTable("realm_user_defaults").set({ settings }).where("realm_id", "=", realmId).execute();
}
