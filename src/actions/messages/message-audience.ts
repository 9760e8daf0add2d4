/**
 * Who receives the live update when someone acts on messages of one conversation (reacts, edits,
 * deletes): exactly the users who may still see them, mirroring access/messages.ts. As in Zulip, a
 * public channel's update goes to its subscribers plus the non-guests holding a row (historical
 * rows included), not to everyone who might have fetched the messages.
 */
import { ROLE } from "../../policy/roles.js";
import type { Tx } from "../../store/db.js";
import { getSubscriberIds } from "../../store/subscriptions.js";
import { MESSAGE_TYPE, type ChannelRow, type MessageRow } from "../../store/types.js";
import { getUserIdsWithRows } from "../../store/user-messages.js";

/** `messages` share one conversation; `channel` is theirs for channel messages. */
export async function messageEventRecipientIds(
  tx: Tx,
  messages: readonly MessageRow[],
  channel: ChannelRow | null,
): Promise<number[]> {
  if (messages.length === 0) return [];
  const ids = messages.map((m) => m.id);
  if (messages[0].type !== MESSAGE_TYPE.CHANNEL || channel === null) return getUserIdsWithRows(tx, ids);
  const subscribers = await getSubscriberIds(tx, channel.recipient_id as number);
  if (!channel.history_public_to_subscribers) {
    // Protected history: only subscribers who received the messages themselves.
    const received = new Set(await getUserIdsWithRows(tx, ids));
    return subscribers.filter((id) => received.has(id));
  }
  if (channel.invite_only) return subscribers;
  const withRows = await getUserIdsWithRows(tx, ids, { excludeRole: ROLE.GUEST });
  return [...new Set([...subscribers, ...withRows])];
}
