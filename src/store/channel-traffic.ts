/**
 * Messages sent to each channel per UTC day (Zulip's `messages_in_stream:is_bot:day` counts):
 * kept as messages are sent, so a channel's weekly traffic is a sum over at most 28 rows, never a
 * scan of its messages (migration 0010).
 */
import { sql } from "kysely";
import { averageWeeklyTraffic, trafficWindow } from "../lib/channel-traffic.js";
import type { Tx } from "./db.js";

/** Counts one more message sent to the channel on `day`. */
export async function countChannelMessage(tx: Tx, channelId: number, day: number): Promise<void> {
  await tx.db
    .insertInto("channel_message_counts")
    .values({ channel_id: channelId, day, count: 1 })
    .onConflict((oc) => oc.columns(["channel_id", "day"]).doUpdateSet({ count: sql`channel_message_counts.count + 1` }))
    .execute();
}

/** Counts, in one statement, the channel messages with ids above `afterId` (bulk loads). */
export async function countChannelMessagesAfter(tx: Tx, afterId: number): Promise<void> {
  await sql`INSERT INTO channel_message_counts (channel_id, day, count)
    SELECT c.id, m.date_sent / 86400, count(*) FROM messages m JOIN channels c ON c.recipient_id = m.recipient_id
    WHERE m.id > ${afterId} GROUP BY c.id, m.date_sent / 86400
    ON CONFLICT (channel_id, day) DO UPDATE SET count = channel_message_counts.count + excluded.count`.execute(tx.db);
}

/** Messages sent to each channel on days `fromDay` to `toDay` (exclusive); channels with none are absent. */
export async function getChannelMessageCounts(tx: Tx, channelIds: readonly number[], fromDay: number, toDay: number): Promise<Map<number, number>> {
  if (channelIds.length === 0) return new Map();
  const rows = await tx.db
    .selectFrom("channel_message_counts")
    .select(["channel_id", (eb) => eb.fn.sum<number | string>("count").as("messages")])
    .where("channel_id", "in", [...new Set(channelIds)])
    .where("day", ">=", fromDay)
    .where("day", "<", toDay)
    .groupBy("channel_id")
    .execute();
  return new Map(rows.map((r) => [r.channel_id, Number(r.messages)]));
}

/** Each channel's stream_weekly_traffic at `now` (null for channels under a week old). */
export async function getWeeklyTraffic(
  tx: Tx,
  channels: ReadonlyArray<{ id: number; date_created: number }>,
  now: number,
): Promise<Map<number, number | null>> {
  const { fromDay, toDay } = trafficWindow(now);
  const counts = await getChannelMessageCounts(tx, channels.map((c) => c.id), fromDay, toDay);
  return new Map(channels.map((c) => [c.id, averageWeeklyTraffic(counts.get(c.id) ?? 0, Number(c.date_created), now)]));
}
