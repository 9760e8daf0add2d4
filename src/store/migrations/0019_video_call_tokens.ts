/**
 * Video call providers' OAuth tokens, one per user and provider (Zulip keeps them in
 * UserProfile.third_party_api_state under the provider's key, e.g. "webex"): the token as the
 * provider answered it (JSON: access_token, refresh_token, expires_at), written when the user
 * completes the provider's authorization and dropped when the provider refuses it.
 */
import type { Migration } from "./helpers.js";

export const videoCallTokens: Migration = {
  async up(db) {
    await db.schema
      .createTable("video_call_tokens")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("provider", "text", (c) => c.notNull())
      .addColumn("token", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("video_call_tokens_pk", ["user_id", "provider"])
      .execute();
  },
};
