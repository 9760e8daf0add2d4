/**
 * Message-related register state: max_message_id, unread_msgs (Zulip's shape: pms, streams,
 * huddles, mentions, count) and starred_messages.
 */
import { FLAG_BITS } from "../../lib/flags.js";
import { displayTopic } from "../../lib/topics.js";
import { MESSAGE_TYPE } from "../../store/types.js";
import { getChannelsByRecipientIds, getRecipientMembers } from "../../store/channels.js";
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
  const directRecipientIds = [...new Set(unread.filter((m) => m.type !== MESSAGE_TYPE.CHANNEL).map((m) => m.recipient_id))];
  const [groupMembers, channels] = await Promise.all([getRecipientMembers(tx, directRecipientIds), getChannelsByRecipientIds(tx, recipientIds)]);
  const channelByRecipient = new Map(channels.map((c) => [c.recipient_id as number, c.id]));
  const pms = new Map<number, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  for (const m of unread) {
    const id = Number(m.id);
    if ((m.flags & MENTION_BITS) !== 0) mentions.push(id);
    if (m.type === MESSAGE_TYPE.CHANNEL) {
      // Zulip buckets by the exact topic (aggregate_unread_data); clients fold case themselves.
      const key = `${m.recipient_id}\u0000${m.subject}`;
      const entry = streams.get(key) ?? {
        stream_id: channelByRecipient.get(m.recipient_id) as number,
        topic: displayTopic(m.subject, opts.allowEmptyTopicName),
        unread_message_ids: [],
      };
      entry.unread_message_ids.push(id);
      streams.set(key, entry);
      continue;
    }
    const members = groupMembers.get(m.recipient_id) ?? [];
    if (members.length <= 2) {
      // A 1:1 conversation, keyed by the other participant (the user for messages to themselves).
      const other = members.find((u) => u !== userId) ?? userId;
      // Pushed, not copied: a conversation can hold thousands of unread messages.
      const ids = pms.get(other) ?? [];
      ids.push(id);
      pms.set(other, ids);
    } else {
      const key = members.join(",");
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
