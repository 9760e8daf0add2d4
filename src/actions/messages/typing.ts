/**
 * Typing notifications (spec 4.1, section 6), and typing while editing a message (Zulip's
 * set-typing-status-for-message-edit, FL 351/361). The server keeps no typing state: it validates
 * and fans a `typing` (or `typing_edit_message`) event out to the conversation's users whose
 * receives_typing_notifications is on. A guest limited by can_access_all_users_group may not type
 * to users they may not access (the event would show them their addresses): the error of sending
 * them a message. Channel subscribers who may not access the sender see the sender's placeholder
 * address.
 */
import { accessChannelById } from "../../access/channels.js";
import { accessMessage } from "../../access/messages.js";
import { checkSenderCanAccessRecipients, partitionByAccess } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, invalidMessage, invalidParam, missingParam } from "../../errors.js";
import { normalizeTopic } from "../../lib/topics.js";
import { mergeSettings, settingOf } from "../../lib/user-settings.js";
import type { ChangeStamp } from "../../store/change-stamp.js";
import { readTx, type Tx } from "../../store/db.js";
import { getRecipientMembers } from "../../store/channels.js";
import { getSubscriberIds } from "../../store/subscriptions.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getListedUsersByIds, type ListedUser } from "../../store/users.js";
import { canPostToChannel } from "../../policy/channels.js";
import { inaccessibleUserEmail } from "../../present/present-user.js";
import { placeholderEmailDomain } from "../users/user-access-events.js";
import { checkContentEditAllowed } from "../message-edits/edit-permissions.js";

/** Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: larger channels get no typing events. */
export const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

export interface TypingInput {
  type: "direct" | "stream" | "channel";
  op: "start" | "stop";
  to?: number[];
  streamId?: number;
  topic?: string;
}

const receives = (u: ListedUser) => u.is_active && settingOf(u.settings, "receives_typing_notifications") !== false;

/**
 * Who of `userIds` gets typing events. Users come from the realm's cached user list (typing is
 * the most frequent write-free request a client makes, and reading whole rows was a fifth of its
 * CPU: issue 21).
 */
async function receivers(tx: Tx, realmId: number, userIds: number[]): Promise<ListedUser[]> {
  return (await getListedUsersByIds(tx, realmId, userIds)).filter(receives);
}

/** `stamp`: the request's authentication stamp (UserContext.stamp), for the cached user lists. */
export async function checkSendTyping(deps: AppDeps, sender: UserRow, input: TypingInput, stamp?: ChangeStamp | null): Promise<void> {
  const tx = readTx(deps.store, stamp);
  const settings = mergeSettings(sender.settings);
  const senderRef = { user_id: sender.id, email: sender.email };
  if (input.type === "direct") {
    if (input.to === undefined) throw missingParam("to");
    if (input.to.length === 0) throw new ApiError("Empty 'to' list");
    if (!settings.send_private_typing_notifications) throw noDirectTyping();
    const ids = [...new Set(input.to)];
    // One lookup serves the check, the event's recipients and the receivers (issue 8, S7).
    const everyone = await getListedUsersByIds(tx, sender.realm_id, [sender.id, ...ids]);
    const missing = ids.find((id) => !everyone.some((u) => u.id === id && u.is_active));
    if (missing !== undefined) throw new ApiError(`Invalid user ID ${missing}`);
    await checkSenderCanAccessRecipients(tx, sender, everyone);
    const event = {
      type: "typing",
      op: input.op,
      message_type: "direct",
      sender: senderRef,
      recipients: everyone.sort((a, b) => a.id - b.id).map((u) => ({ user_id: u.id, email: u.email })),
    };
    deps.events.publish(event, everyone.filter(receives).map((u) => u.id));
    return;
  }
  if (input.streamId === undefined) throw new ApiError("Missing channel ID");
  if (input.topic === undefined) throw new ApiError("Missing topic");
  if (!settings.send_stream_typing_notifications) throw noChannelTyping();
  const { channel, viewer } = await accessChannelById(tx, sender, input.streamId, { requireContent: true });
  if (!canPostToChannel(viewer, channel)) throw new ApiError("Invalid channel ID");
  const subscribers = await getSubscriberIds(tx, channel.recipient_id as number);
  if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return;
  const event = {
    type: "typing",
    op: input.op,
    message_type: "stream",
    sender: senderRef,
    stream_id: channel.id,
    topic: normalizeTopic(input.topic),
  };
  const audience = await partitionByAccess(tx, sender, (await receivers(tx, sender.realm_id, subscribers)).map((u) => u.id));
  deps.events.publish(event, audience.accessing);
  if (audience.notAccessing.length > 0) {
    const placeholder = { user_id: sender.id, email: inaccessibleUserEmail(sender.id, await placeholderEmailDomain(tx, deps.config, sender.realm_id)) };
    deps.events.publish({ ...event, sender: placeholder }, audience.notAccessing);
  }
}

export function checkTypingType(type: string): TypingInput["type"] {
  if (type === "direct" || type === "stream" || type === "channel") return type;
  throw invalidParam("Invalid type");
}

const noChannelTyping = () => new ApiError("User has disabled typing notifications for channel messages");
const noDirectTyping = () => new ApiError("User has disabled typing notifications for direct messages");

/**
 * POST /messages/{message_id}/typing (Zulip's send_message_edit_notification_backend): only someone
 * who may edit the message's content right now (no grace period) announces editing it. A channel
 * message's event goes to its channel's subscribers (none past the typing size limit), a direct
 * message's to its participants; `recipient.user_ids` of the latter lists exactly who is told, as
 * in Zulip's do_send_direct_message_edit_typing_notification.
 */
export async function checkSendEditTyping(deps: AppDeps, realm: RealmRow, sender: UserRow, messageId: number, op: "start" | "stop"): Promise<void> {
  const tx = readTx(deps.store);
  const { message, channel } = await accessMessage(tx, sender, messageId);
  if (channel?.deactivated) throw invalidMessage();
  checkContentEditAllowed(realm, sender, message, deps.clock.now(), 0);
  const settings = mergeSettings(sender.settings);
  const base = { type: "typing_edit_message", op, sender_id: sender.id, message_id: message.id };
  if (channel) {
    if (!settings.send_stream_typing_notifications) throw noChannelTyping();
    const subscribers = await getSubscriberIds(tx, channel.recipient_id as number);
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return;
    const told = (await receivers(tx, sender.realm_id, subscribers)).map((u) => u.id);
    deps.events.publish({ ...base, recipient: { type: "channel", channel_id: channel.id, topic: message.subject } }, told);
    return;
  }
  if (!settings.send_private_typing_notifications) throw noDirectTyping();
  const participants = (await getRecipientMembers(tx, [message.recipient_id])).get(message.recipient_id) ?? [];
  const told = (await receivers(tx, sender.realm_id, participants)).map((u) => u.id).sort((a, b) => a - b);
  deps.events.publish({ ...base, recipient: { type: "direct", user_ids: told } }, told);
}
