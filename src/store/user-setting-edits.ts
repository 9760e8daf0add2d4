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

/** Those of `userIds` who changed `setting` themselves. */
export async function usersWhoEditedSetting(tx: Tx, userIds: readonly number[], setting: string): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await tx.db
    .selectFrom("user_setting_edits")
    .select("user_id")
    .where("setting", "=", setting)
    .where("user_id", "in", [...userIds])
    .execute();
  return new Set(rows.map((r) => r.user_id));
}
