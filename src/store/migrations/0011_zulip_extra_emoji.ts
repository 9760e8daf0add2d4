/**
 * The reaction type of the extra emoji that ship with the server (`:zulip:`) is spelled
 * `zulip_extra_emoji`, as Zulip spells it (api/add-reaction, parameter reaction_type). Parley
 * stored `service_extra_emoji`, which the mobile app's parser refuses: one such reaction or status
 * made the whole realm unloadable there (issue 15). Stored rows take Zulip's value.
 */
import { sql } from "kysely";
import type { Migration } from "./helpers.js";

export const zulipExtraEmoji: Migration = {
  async up(db) {
    for (const table of ["reactions", "user_status"]) {
      await sql`UPDATE ${sql.table(table)} SET reaction_type = 'zulip_extra_emoji' WHERE reaction_type = 'service_extra_emoji'`.execute(db);
    }
  },
};
