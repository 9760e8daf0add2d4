/**
 * Who muted a given user: every message send asks it of the sender (Zulip's muted_sender_user_ids,
 * FL 48), and muted_users' primary key (user_id, muted_user_id) cannot answer it.
 */
import type { Migration } from "./helpers.js";
import { index } from "./helpers.js";

export const mutedUserLookup: Migration = {
  async up(db) {
    await index(db, "muted_users_muted_user", "muted_users", ["muted_user_id"]);
  },
};
