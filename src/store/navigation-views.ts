/** SQL for users' navigation views (Zulip's NavigationView, FL 390; migration 0016). */
import type { Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type NavigationViewRow = Selectable<DB["navigation_views"]>;

/** The user's views in the order they were added. */
export async function listNavigationViews(tx: Tx, userId: number): Promise<NavigationViewRow[]> {
  return tx.db.selectFrom("navigation_views").selectAll().where("user_id", "=", userId).orderBy("id").execute();
}

export async function getNavigationView(tx: Tx, userId: number, fragment: string): Promise<NavigationViewRow | undefined> {
  return tx.db.selectFrom("navigation_views").selectAll().where("user_id", "=", userId).where("fragment", "=", fragment).executeTakeFirst();
}

export async function countNavigationViews(tx: Tx, userId: number): Promise<number> {
  const row = await tx.db.selectFrom("navigation_views").select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether one of the user's views already has this name (names are compared exactly, as in Zulip). */
export async function navigationViewNameTaken(tx: Tx, userId: number, name: string): Promise<boolean> {
  const row = await tx.db.selectFrom("navigation_views").select("id").where("user_id", "=", userId).where("name", "=", name).executeTakeFirst();
  return row !== undefined;
}

/** Inserts the view unless the user has one with this fragment; answers whether it did. */
export async function insertNavigationView(tx: Tx, row: { user_id: number; fragment: string; is_pinned: boolean; name: string | null }): Promise<boolean> {
  const result = await tx.db
    .insertInto("navigation_views")
    .values(row)
    .onConflict((oc) => oc.columns(["user_id", "fragment"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateNavigationView(tx: Tx, id: number, changes: { is_pinned?: boolean; name?: string }): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await tx.db.updateTable("navigation_views").set(changes).where("id", "=", id).execute();
}

export async function deleteNavigationView(tx: Tx, id: number): Promise<void> {
  await tx.db.deleteFrom("navigation_views").where("id", "=", id).execute();
}
