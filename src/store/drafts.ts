/** SQL for users' stored drafts (Zulip's Draft): `to` is JSON text of channel or user ids. */
import type { Insertable, Selectable, Updateable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type DraftRow = Selectable<DB["drafts"]>;
export type NewDraft = Insertable<DB["drafts"]>;

/** Turning enable_drafts_synchronization off deletes the server's copies (spec 4.2). */
export async function deleteDraftsOfUser(tx: Tx, userId: number): Promise<void> {
  await tx.db.deleteFrom("drafts").where("user_id", "=", userId).execute();
}

export async function insertDrafts(tx: Tx, rows: readonly NewDraft[]): Promise<DraftRow[]> {
  if (rows.length === 0) return [];
  return tx.db.insertInto("drafts").values([...rows]).returningAll().execute();
}

/** The user's drafts, least recently edited first (Zulip's order). */
export async function listDrafts(tx: Tx, userId: number): Promise<DraftRow[]> {
  return tx.db.selectFrom("drafts").selectAll().where("user_id", "=", userId).orderBy("timestamp").orderBy("id").execute();
}

export async function getDraft(tx: Tx, userId: number, id: number): Promise<DraftRow | undefined> {
  return tx.db.selectFrom("drafts").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
}

export async function updateDraft(tx: Tx, id: number, changes: Updateable<DB["drafts"]>): Promise<DraftRow> {
  return tx.db.updateTable("drafts").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteDraft(tx: Tx, id: number): Promise<void> {
  await tx.db.deleteFrom("drafts").where("id", "=", id).execute();
}
