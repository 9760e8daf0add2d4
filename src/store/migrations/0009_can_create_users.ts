/**
 * Zulip's per-account `can_create_users` permission (FL 36): POST /users needs it besides the
 * administrator role. Server operators grant it (`manage change-user-permission`), never the API,
 * so existing accounts start without it, as Zulip's own migration left them.
 */
import { boolType, type Migration } from "./helpers.js";

export const canCreateUsers: Migration = {
  async up(db, d) {
    await db.schema
      .alterTable("users")
      .addColumn("can_create_users", boolType(d), (c) => c.notNull().defaultTo(false))
      .execute();
  },
};
