/**
 * realm_exports: one row per data export of a realm (Zulip's RealmExport, FL 304/449): who asked,
 * which kind (`public`, `full_with_consent`, `full_without_consent`), its status and times, and
 * where the finished archive lives in upload storage. The consent to exports itself
 * (`allow_private_data_export`, FL 293) is a personal setting, kept with the others in users.settings.
 */
import type { Migration } from "./helpers.js";
import { index, withId } from "./helpers.js";

export const realmExports: Migration = {
  async up(db, d) {
    await withId(db.schema.createTable("realm_exports"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("acting_user_id", "integer", (c) => c.references("users.id"))
      .addColumn("export_type", "text", (c) => c.notNull())
      // 1 requested, 2 started, 3 succeeded, 4 failed, 5 deleted (Zulip's RealmExport statuses).
      .addColumn("status", "integer", (c) => c.notNull())
      .addColumn("date_requested", "integer", (c) => c.notNull())
      .addColumn("date_started", "integer")
      .addColumn("date_succeeded", "integer")
      .addColumn("date_failed", "integer")
      .addColumn("date_deleted", "integer")
      .addColumn("path_id", "text")
      .addColumn("size", "bigint")
      .addColumn("failure", "text")
      .execute();
    await index(db, "realm_exports_realm", "realm_exports", ["realm_id", "date_requested"]);
  },
};
