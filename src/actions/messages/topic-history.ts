/**
 * A channel's topic list (spec 4.19; Zulip's get-stream-topics): each topic once, newest activity
 * first. Topics match case-insensitively, and a topic shows with the spelling of its latest message.
 */
import { accessChannelById } from "../../access/channels.js";
import { displayTopic } from "../../lib/topics.js";
import type { Tx } from "../../store/db.js";
import { getTopicMaxIds } from "../../store/topics.js";
import type { UserRow } from "../../store/types.js";

export interface TopicEntry {
  name: string;
  max_id: number;
}

export async function getChannelTopics(tx: Tx, user: UserRow, channelId: number, allowEmptyTopicName: boolean): Promise<TopicEntry[]> {
  // Archived channels stay listable; hidden and missing channels both give "Invalid channel ID".
  const { channel } = await accessChannelById(tx, user, channelId, { requireContent: true });
  // Protected history: only the topics of messages the user received (their user_messages rows).
  const publicHistory = channel.history_public_to_subscribers || !channel.invite_only;
  const rows = await getTopicMaxIds(tx, user.realm_id, channel.recipient_id as number, publicHistory ? null : user.id);
  const latest = new Map<string, { topic: string; maxId: number }>();
  for (const row of rows) {
    const key = row.topic.toLowerCase();
    const seen = latest.get(key);
    if (!seen || row.maxId > seen.maxId) latest.set(key, row);
  }
  return [...latest.values()]
    .sort((a, b) => b.maxId - a.maxId)
    .map((t) => ({ name: displayTopic(t.topic, allowEmptyTopicName), max_id: t.maxId }));
}
