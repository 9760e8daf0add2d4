/**
 * Message-related register state: max_message_id, unread_msgs (Zulip's shape: pms, streams,
 * huddles, mentions, count) and starred_messages.
 */
import { FLAG_BITS } from "../../lib/flags.js";
import { displayTopic } from "../../lib/topics.js";
import { RECIPIENT, getChannelsByRecipientIds, getRecipientMembers, getRecipientsByIds } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getMaxMessageId } from "../../store/profile.js";
import { getStarredMessageIds, getUnreadMessages } from "../../store/state.js";

const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

export async function maxMessageIdState(tx: Tx, userId: number) {
  return { max_message_id: await getMaxMessageId(tx, userId) };
}

/** Topics read as realm_empty_topic_display_name for clients without empty_topic_name (FL 334). */
export async function unreadState(tx: Tx, userId: number, opts: { allowEmptyTopicName: boolean }): Promise<Record<string, unknown>> {
  const unread = (await getUnreadMessages(tx, userId)).reverse();
  const recipientIds = [...new Set(unread.map((m) => m.recipient_id))];
  const [recipients, channels] = await Promise.all([getRecipientsByIds(tx, recipientIds), getChannelsByRecipientIds(tx, recipientIds)]);
  const groupMembers = await getRecipientMembers(tx, recipients.filter((r) => r.type === RECIPIENT.DIRECT_MESSAGE_GROUP).map((r) => r.id));
  const recipientById = new Map(recipients.map((r) => [r.id, r]));
  const channelByRecipient = new Map(channels.map((c) => [c.recipient_id as number, c.id]));
  const pms = new Map<number, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  for (const m of unread) {
    const id = Number(m.id);
    if ((m.flags & MENTION_BITS) !== 0) mentions.push(id);
    const r = recipientById.get(m.recipient_id);
    if (!r) continue;
    if (r.type === RECIPIENT.CHANNEL) {
      // Zulip buckets by the exact topic (aggregate_unread_data); clients fold case themselves.
      const key = `${m.recipient_id}\u0000${m.subject}`;
      const entry = streams.get(key) ?? {
        stream_id: channelByRecipient.get(m.recipient_id) as number,
        topic: displayTopic(m.subject, opts.allowEmptyTopicName),
        unread_message_ids: [],
      };
      entry.unread_message_ids.push(id);
      streams.set(key, entry);
    } else if (r.type === RECIPIENT.PERSONAL) {
      const other = r.type_id === userId ? m.sender_id : r.type_id;
      // Pushed, not copied: a conversation can hold thousands of unread messages.
      const ids = pms.get(other) ?? [];
      ids.push(id);
      pms.set(other, ids);
    } else {
      const key = (groupMembers.get(r.id) ?? []).join(",");
      const ids = huddles.get(key) ?? [];
      ids.push(id);
      huddles.set(key, ids);
    }
  }
  return {
    unread_msgs: {
      pms: [...pms].map(([other_user_id, ids]) => ({ other_user_id, sender_id: other_user_id, unread_message_ids: ids })),
      streams: [...streams.values()],
      huddles: [...huddles].map(([user_ids_string, ids]) => ({ user_ids_string, unread_message_ids: ids })),
      mentions,
      count: unread.length,
      old_unreads_missing: false,
    },
  };
}

export async function starredState(tx: Tx, userId: number) {
  return { starred_messages: await getStarredMessageIds(tx, userId) };
}
