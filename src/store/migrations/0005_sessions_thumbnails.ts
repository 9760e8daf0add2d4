/**
 * Browser sessions and image thumbnails (issue 7: session-cookie auth for uploads, thumbnails).
 *
 * - `sessions` was created empty in 0001 and never written; it is replaced by the shape web login
 *   needs: the key is a hash of the cookie's token (a leaked table lets nobody in), the realm it
 *   belongs to, and `auth_hash`, a digest of the user's password hash and API key when the session
 *   began, so changing either ends every session (as Django's session auth hash does).
 * - `image_attachments` is Zulip's ImageAttachment: the dimensions and frame count of an uploaded
 *   image and the thumbnails generated for it (JSON list), removed with its attachment.
 */
import { index, withId, type Migration } from "./helpers.js";

export const sessionsThumbnails: Migration = {
  async up(db, d) {
    await db.schema.dropTable("sessions").execute();
    await db.schema
      .createTable("sessions")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("auth_hash", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await index(db, "sessions_user", "sessions", ["user_id", "created_at"]);
    await index(db, "sessions_expires", "sessions", ["expires_at"]);

    await withId(db.schema.createTable("image_attachments"), d)
      .addColumn("attachment_id", "integer", (c) => c.notNull().unique().references("attachments.id").onDelete("cascade"))
      .addColumn("original_width_px", "integer", (c) => c.notNull())
      .addColumn("original_height_px", "integer", (c) => c.notNull())
      .addColumn("frames", "integer", (c) => c.notNull())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addColumn("thumbnails", "text", (c) => c.notNull())
      .execute();
  },
};
