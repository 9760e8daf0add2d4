/**
 * Mentions resolve users by full name, case-insensitively (render-refs.ts getUsersForMentions).
 * Without an index every message with a mention scanned the realm's users: 2 ms per message at
 * 5,000 users (issue 8, S2).
 */
import { exprIndex, type Migration } from "./helpers.js";

export const mentionLookup: Migration = {
  async up(db) {
    await exprIndex(db, "users_realm_full_name", "users", "realm_id, lower(full_name)");
  },
};
