/**
 * Per-channel, per-UTC-day message counts for `stream_weekly_traffic` (Zulip's
 * `messages_in_stream:is_bot:day` analytics; store/channel-traffic.ts), filled from the messages
 * already sent.
 */
import { sql } from "kysely";
import type { Migration } from "./helpers.js";

export const channelTraffic: Migration = {
  async up(db) {
    await db.schema
      .createTable("channel_message_counts")
      .addColumn("channel_id", "integer", (c) => c.notNull().references("channels.id"))
      .addColumn("day", "integer", (c) => c.notNull())
      .addColumn("count", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("channel_message_counts_pk", ["channel_id", "day"])
      .execute();
    // date_sent is whole seconds on both engines, so the division is an integer one.
    await sql
      .raw(
        `INSERT INTO channel_message_counts (channel_id, day, count)
         SELECT c.id, m.date_sent / 86400, count(*) FROM messages m JOIN channels c ON c.recipient_id = m.recipient_id
         GROUP BY c.id, m.date_sent / 86400`,
      )
      .execute(db);
  },
};
