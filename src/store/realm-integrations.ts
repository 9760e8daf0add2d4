/** SQL for a realm's code playgrounds and allowed sign-up domains (migration 0017). */
import type { Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type PlaygroundRow = Selectable<DB["realm_playgrounds"]>;
export type RealmDomainRow = Selectable<DB["realm_domains"]>;

export async function listPlaygrounds(tx: Tx, realmId: number): Promise<PlaygroundRow[]> {
  return tx.db.selectFrom("realm_playgrounds").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

export async function countPlaygrounds(tx: Tx, realmId: number): Promise<number> {
  const row = await tx.db.selectFrom("realm_playgrounds").select((eb) => eb.fn.countAll().as("n")).where("realm_id", "=", realmId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function getPlaygroundByName(tx: Tx, realmId: number, pygmentsLanguage: string, name: string): Promise<PlaygroundRow | undefined> {
  return tx.db
    .selectFrom("realm_playgrounds")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("pygments_language", "=", pygmentsLanguage)
    .where("name", "=", name)
    .executeTakeFirst();
}

export async function insertPlayground(tx: Tx, row: Omit<PlaygroundRow, "id">): Promise<number> {
  return (await tx.db.insertInto("realm_playgrounds").values(row).returning("id").executeTakeFirstOrThrow()).id;
}

/** Deletes the realm's playground with that id; false when there is none. */
export async function deletePlayground(tx: Tx, realmId: number, id: number): Promise<boolean> {
  const result = await tx.db.deleteFrom("realm_playgrounds").where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listRealmDomains(tx: Tx, realmId: number): Promise<RealmDomainRow[]> {
  return tx.db.selectFrom("realm_domains").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

export async function countRealmDomains(tx: Tx, realmId: number): Promise<number> {
  const row = await tx.db.selectFrom("realm_domains").select((eb) => eb.fn.countAll().as("n")).where("realm_id", "=", realmId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function getRealmDomain(tx: Tx, realmId: number, domain: string): Promise<RealmDomainRow | undefined> {
  return tx.db.selectFrom("realm_domains").selectAll().where("realm_id", "=", realmId).where("domain", "=", domain).executeTakeFirst();
}

export async function insertRealmDomain(tx: Tx, realmId: number, domain: string, allowSubdomains: boolean): Promise<number> {
  return (await tx.db.insertInto("realm_domains").values({ realm_id: realmId, domain, allow_subdomains: allowSubdomains }).returning("id").executeTakeFirstOrThrow()).id;
}

export async function updateRealmDomain(tx: Tx, id: number, allowSubdomains: boolean): Promise<void> {
  await tx.db.updateTable("realm_domains").set({ allow_subdomains: allowSubdomains }).where("id", "=", id).execute();
}

export async function deleteRealmDomain(tx: Tx, id: number): Promise<void> {
  await tx.db.deleteFrom("realm_domains").where("id", "=", id).execute();
}
