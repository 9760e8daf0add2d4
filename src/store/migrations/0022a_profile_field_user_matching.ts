/**
 * Custom profile fields' use_for_user_matching (Zulip FL 455): whether clients match users by
 * the field's values (e.g. in typeahead). Off for every existing field, as in Zulip.
 */
import type { Migration } from "./helpers.js";
import { boolType } from "./helpers.js";

export const profileFieldUserMatching: Migration = {
  async up(db, d) {
    await db.schema
      .alterTable("custom_profile_fields")
      .addColumn("use_for_user_matching", boolType(d), (c) => c.notNull().defaultTo(d === "sqlite" ? 0 : false))
      .execute();
  },
};
