/**
 * Alert words (Zulip's get/add/remove-alert-words): words or phrases, at most 100 characters each,
 * that flag a message for the user (has_alert_word, set by send-message from this table). Letter
 * case does not make a word new; each change sends the user the whole list (alert_words event).
 */
import type { AppDeps } from "../../deps.js";
import { publishOnCommit } from "../../events/bus.js";
import { deleteAlertWordsByIds, getAlertWordRows, insertAlertWords } from "../../store/alert-words.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import type { UserRow } from "../../store/types.js";

export const MAX_ALERT_WORD_LENGTH = 100;

async function wordsOf(tx: Tx, userId: number): Promise<string[]> {
  return (await getAlertWordRows(tx, userId)).map((r) => r.word);
}

export function getOwnAlertWords(deps: AppDeps, user: UserRow): Promise<string[]> {
  return wordsOf(readTx(deps.store), user.id);
}

async function changeAlertWords(deps: AppDeps, user: UserRow, change: (tx: Tx) => Promise<void>): Promise<string[]> {
  return transaction(deps.store, async (tx) => {
    await change(tx);
    const words = await wordsOf(tx, user.id);
    publishOnCommit(tx, deps.events, { type: "alert_words", alert_words: words }, [user.id]);
    return words;
  });
}

/** Adds the words not already there (trimmed; empty ones dropped); returns the new list. */
export function addAlertWords(deps: AppDeps, user: UserRow, words: readonly string[]): Promise<string[]> {
  return changeAlertWords(deps, user, async (tx) => {
    const known = new Set((await wordsOf(tx, user.id)).map((w) => w.toLowerCase()));
    const added = new Map<string, string>();
    for (const word of words.map((w) => w.trim()).filter((w) => w !== "")) {
      if (!known.has(word.toLowerCase())) added.set(word.toLowerCase(), word);
    }
    await insertAlertWords(tx, user.id, [...added.values()]);
  });
}

/** Removes the words, whatever their letter case; returns the new list. */
export function removeAlertWords(deps: AppDeps, user: UserRow, words: readonly string[]): Promise<string[]> {
  return changeAlertWords(deps, user, async (tx) => {
    const removed = new Set(words.map((w) => w.toLowerCase()));
    const rows = await getAlertWordRows(tx, user.id);
    await deleteAlertWordsByIds(tx, user.id, rows.filter((r) => removed.has(r.word.toLowerCase())).map((r) => r.id));
  });
}
