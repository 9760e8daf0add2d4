/** SQL for realms (organizations) and their user-settings defaults. */
import type { Tx } from "./db.js";
import type { NewRealm, RealmRow, RealmUpdate } from "./types.js";

export async function getRealmBySubdomain(tx: Tx, subdomain: string): Promise<RealmRow | undefined> {
  return tx.db.selectFrom("realms").selectAll().where("string_id", "=", subdomain).executeTakeFirst();
}

export async function getRealmById(tx: Tx, id: number): Promise<RealmRow | undefined> {
  return tx.db.selectFrom("realms").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Every realm with its count of active human accounts (manage list-realms). */
export async function listRealmsWithUserCounts(tx: Tx): Promise<Array<RealmRow & { active_humans: number }>> {
  const rows = await tx.db
    .selectFrom("realms")
    .selectAll("realms")
    .select((eb) =>
      eb
        .selectFrom("users")
        .select((u) => u.fn.countAll<number>().as("n"))
        .whereRef("users.realm_id", "=", "realms.id")
        .where("users.is_active", "=", true)
        .where("users.is_bot", "=", false)
        .as("active_humans"),
    )
    .orderBy("realms.id")
    .execute();
  return rows.map((r) => ({ ...r, active_humans: Number(r.active_humans ?? 0) }));
}

/** A page of the realm's accounts by id, after `afterId` (manage list-users). */
export async function listUsersPage(tx: Tx, realmId: number, afterId: number, limit: number) {
  return tx.db
    .selectFrom("users")
    .select(["id", "delivery_email", "full_name", "role", "is_active", "is_bot", "bot_type", "date_joined"])
    .where("realm_id", "=", realmId)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
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
