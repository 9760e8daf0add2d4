/**
 * Which personal settings each user changed themselves (FL 444): PATCH /settings with
 * `target_users` and `skip_if_already_edited` leaves those users' choice alone. Zulip answers this
 * from its audit log (RealmAuditLog USER_SETTING_CHANGED with acting_user = modified_user,
 * zerver/views/user_settings.py); Parley keeps only the fact, one row per user and setting, written
 * when a user's own PATCH /settings changes the value. Changes made before this migration are not
 * known, so those users count as not having edited the setting.
 */
import type { Migration } from "./helpers.js";

export const userSettingEdits: Migration = {
  async up(db) {
    await db.schema
      .createTable("user_setting_edits")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("setting", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("user_setting_edits_pk", ["user_id", "setting"])
      .execute();
  },
};
