/** SQL for users' saved snippets (Zulip's SavedSnippet, FL 297; migration 0009). */
import type { Insertable, Selectable, Updateable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type SavedSnippetRow = Selectable<DB["saved_snippets"]>;

export async function insertSavedSnippet(tx: Tx, row: Insertable<DB["saved_snippets"]>): Promise<SavedSnippetRow> {
  return tx.db.insertInto("saved_snippets").values(row).returningAll().executeTakeFirstOrThrow();
}

/** The user's snippets in the order they were made (Zulip lists them by id). */
export async function listSavedSnippets(tx: Tx, userId: number): Promise<SavedSnippetRow[]> {
  return tx.db.selectFrom("saved_snippets").selectAll().where("user_id", "=", userId).orderBy("id").execute();
}

export async function getSavedSnippet(tx: Tx, userId: number, id: number): Promise<SavedSnippetRow | undefined> {
  return tx.db.selectFrom("saved_snippets").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
}

export async function updateSavedSnippet(tx: Tx, id: number, changes: Updateable<DB["saved_snippets"]>): Promise<SavedSnippetRow> {
  return tx.db.updateTable("saved_snippets").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteSavedSnippet(tx: Tx, id: number): Promise<void> {
  await tx.db.deleteFrom("saved_snippets").where("id", "=", id).execute();
}
