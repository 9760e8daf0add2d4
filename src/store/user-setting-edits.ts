/** SQL for the personal settings users changed themselves (migration 0023). */
import type { Tx } from "./db.js";

/** Notes that the user changed these settings themselves (a second change changes nothing). */
export async function recordSettingEdits(tx: Tx, userId: number, settings: readonly string[]): Promise<void> {
  if (settings.length === 0) return;
  await tx.db
    .insertInto("user_setting_edits")
    .values(settings.map((setting) => ({ user_id: userId, setting })))
    .onConflict((oc) => oc.columns(["user_id", "setting"]).doNothing())
    .execute();
}

/** Which of `settings` each of `userIds` changed themselves, as "userId setting" keys (editKey). */
export async function settingEditsOf(tx: Tx, userIds: readonly number[], settings: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0 || settings.length === 0) return new Set();
  const rows = await tx.db
    .selectFrom("user_setting_edits")
    .select(["user_id", "setting"])
    .where("setting", "in", [...settings])
    .where("user_id", "in", [...userIds])
    .execute();
  return new Set(rows.map((r) => editKey(r.user_id, r.setting)));
}

export const editKey = (userId: number, setting: string): string => `${userId} ${setting}`;
