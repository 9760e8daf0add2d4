/** SQL for the realm's linkifiers (listing lives in store/render-refs getLinkifiers, in order). */
import type { Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type LinkifierRow = Selectable<DB["linkifiers"]>;
type LinkifierFields = Pick<LinkifierRow, "pattern" | "url_template" | "example_input" | "reverse_template" | "alternative_url_templates">;

export async function getLinkifier(tx: Tx, realmId: number, id: number): Promise<LinkifierRow | undefined> {
  return tx.db.selectFrom("linkifiers").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

export async function getLinkifierByPattern(tx: Tx, realmId: number, pattern: string): Promise<LinkifierRow | undefined> {
  return tx.db.selectFrom("linkifiers").selectAll().where("realm_id", "=", realmId).where("pattern", "=", pattern).executeTakeFirst();
}

/** Inserts after the realm's last linkifier (linkifiers apply in order). */
export async function insertLinkifier(tx: Tx, realmId: number, fields: LinkifierFields): Promise<number> {
  const max = await tx.db.selectFrom("linkifiers").select((eb) => eb.fn.max("order").as("m")).where("realm_id", "=", realmId).executeTakeFirst();
  const order = max?.m == null ? 0 : Number(max.m) + 1;
  const row = await tx.db.insertInto("linkifiers").values({ realm_id: realmId, ...fields, order }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function updateLinkifier(tx: Tx, id: number, changes: Partial<LinkifierFields & { order: number }>): Promise<void> {
  await tx.db.updateTable("linkifiers").set(changes).where("id", "=", id).execute();
}

export async function deleteLinkifier(tx: Tx, id: number): Promise<void> {
  await tx.db.deleteFrom("linkifiers").where("id", "=", id).execute();
}
