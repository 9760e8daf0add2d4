/**
 * navigation_views: a user's left-sidebar views (Zulip's NavigationView, FL 390): a built-in view's
 * pinned state, or a custom view's fragment and name. One row per user and fragment; the fragment
 * is the view's identity in the API (PATCH/DELETE /navigation_views/{fragment}).
 */
import type { Migration } from "./helpers.js";
import { bool, index, withId } from "./helpers.js";

export const navigationViews: Migration = {
  async up(db, d) {
    let t = withId(db.schema.createTable("navigation_views"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("fragment", "text", (c) => c.notNull());
    t = bool(t, d, "is_pinned", false);
    await t.addColumn("name", "text").execute();
    await index(db, "navigation_views_user_fragment", "navigation_views", ["user_id", "fragment"], true);
  },
};
