/** SQL for users' alert words (the list itself is read by store/state.ts getAlertWords). */
import { inBatches } from "./batches.js";
import type { Tx } from "./db.js";

export async function getAlertWordRows(tx: Tx, userId: number): Promise<Array<{ id: number; word: string }>> {
  return tx.db.selectFrom("alert_words").select(["id", "word"]).where("user_id", "=", userId).orderBy("id").execute();
}

/**
 * Words the user already has, as the unique index on lower(word) sees it, are skipped: the
 * database's lower() and JavaScript's toLowerCase disagree on some letters ("İ"; a 500 on
 * PostgreSQL, found by fuzzing).
 */
export async function insertAlertWords(tx: Tx, userId: number, words: readonly string[]): Promise<void> {
  for (const batch of inBatches(words)) {
    await tx.db
      .insertInto("alert_words")
      .values(batch.map((word) => ({ user_id: userId, word })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

export async function deleteAlertWordsByIds(tx: Tx, userId: number, ids: readonly number[]): Promise<void> {
  for (const batch of inBatches(ids)) {
    await tx.db.deleteFrom("alert_words").where("user_id", "=", userId).where("id", "in", batch).execute();
  }
}
