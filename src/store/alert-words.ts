/** SQL for users' alert words (the list itself is read by store/state.ts getAlertWords). */
import type { Tx } from "./db.js";

export async function getAlertWordRows(tx: Tx, userId: number): Promise<Array<{ id: number; word: string }>> {
  return tx.db.selectFrom("alert_words").select(["id", "word"]).where("user_id", "=", userId).orderBy("id").execute();
}

export async function insertAlertWords(tx: Tx, userId: number, words: readonly string[]): Promise<void> {
  if (words.length === 0) return;
  await tx.db.insertInto("alert_words").values(words.map((word) => ({ user_id: userId, word }))).execute();
}

export async function deleteAlertWordsByIds(tx: Tx, userId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.db.deleteFrom("alert_words").where("user_id", "=", userId).where("id", "in", [...ids]).execute();
}
