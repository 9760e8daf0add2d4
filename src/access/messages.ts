/**
 * Fetch + authorize messages. A message the viewer may not read and one that does not exist both
 * give "Invalid message(s)" (spec 4.6; architecture-anchors §7.5).
 */
import { invalidMessage } from "../errors.js";
import { Membership } from "../policy/group-settings.js";
import { canReadChannel, canReadSharedHistory } from "../policy/channels.js";
import { isGuest } from "../policy/roles.js";
import { getChannelsByRecipientIds } from "../store/channels.js";
import type { Tx } from "../store/db.js";
import { getMessageById, getUserMessageFlags } from "../store/messages.js";
import { isSubscribed } from "../store/subscriptions.js";
import { MESSAGE_TYPE, type ChannelRow, type MessageRow, type UserRow } from "../store/types.js";

export interface AccessedMessage {
  message: MessageRow;
  /** The viewer's flags, or null when they read it without a row of their own. */
  flags: number | null;
  channel: ChannelRow | null;
}

/** Whether a viewer without a user_messages row may read a channel message (policy canReadSharedHistory). */
export async function canReadWithoutRow(tx: Tx, user: UserRow, channel: ChannelRow, membership?: Membership): Promise<boolean> {
  const subscribed = channel.recipient_id !== null && (await isSubscribed(tx, user.id, channel.recipient_id));
  return canReadSharedHistory({ membership: membership ?? (await Membership.load(tx, user)), subscribed }, channel);
}

/**
 * Whether a viewer who received a channel message may still read it: a row is not enough once
 * they have lost content access (Zulip's has_message_access: a private channel's messages need an
 * active subscription or a content-access group; a guest, a subscription), so someone removed
 * from a private channel cannot keep reading, fetching the history of, or reacting to what they
 * received there (issue 16, F8). Public channels stay readable to non-guests.
 */
async function canStillRead(tx: Tx, user: UserRow, channel: ChannelRow): Promise<boolean> {
  if (channel.is_web_public || (!channel.invite_only && !isGuest(user))) return true;
  const subscribed = channel.recipient_id !== null && (await isSubscribed(tx, user.id, channel.recipient_id));
  return subscribed || canReadChannel({ membership: await Membership.load(tx, user), subscribed }, channel);
}

export async function accessMessage(tx: Tx, user: UserRow, messageId: number): Promise<AccessedMessage> {
  const message = await getMessageById(tx, user.realm_id, messageId);
  if (!message) throw invalidMessage();
  const flags = (await getUserMessageFlags(tx, user.id, [messageId])).get(messageId) ?? null;
  if (message.type !== MESSAGE_TYPE.CHANNEL) {
    if (flags === null) throw invalidMessage();
    return { message, flags, channel: null };
  }
  const [channel] = await getChannelsByRecipientIds(tx, [message.recipient_id]);
  if (flags === null ? !(await canReadWithoutRow(tx, user, channel)) : !(await canStillRead(tx, user, channel))) throw invalidMessage();
  return { message, flags, channel };
}
