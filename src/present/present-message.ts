/** The message object of spec section 2, built from loaded rows (pure). */
import { flagNames } from "../lib/flags.js";
import { INACCESSIBLE_USER_AVATAR_PATH, avatarUrl } from "../lib/avatar-urls.js";
import { inaccessibleUserEmail } from "./present-user.js";
import { INACCESSIBLE_USER_NAME } from "../policy/user-access.js";
import { displayTopic } from "../lib/topics.js";
import type { NewMessageEdit } from "../store/edits.js";
import { MESSAGE_TYPE, type MessageRow, type UserRow } from "../store/types.js";


export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

/** An edit-history row as the message object's edit_history is built from it. */
export type EditRow = Omit<NewMessageEdit, "message_id">;

export interface MessageExtras {
  sender: UserRow;
  realmStringId: string;
  /** Channel name, or the conversation's participants. */
  displayRecipient: string | DisplayRecipientUser[];
  channelId: number | null;
  reactions: Array<{ emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }>;
  submessages: Array<{ id: number; message_id: number; sender_id: number; msg_type: string; content: string }>;
  /** Oldest first, as stored; shown most recent first. Omitted when the realm hides history. */
  edits: EditRow[] | null;
  topicLinks: Array<{ text: string; url: string }>;
  /** null when the viewer has no row for the message (e.g. read through public history). */
  flags: number | null;
}

export interface PresentMessageOptions {
  applyMarkdown: boolean;
  /** Zulip's ENABLE_GRAVATAR (config.enableGravatar). */
  gravatar: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
  /** Whether the viewer may see the sender's real email. */
  viewerSeesSenderEmail: boolean;
}

function presentEdit(e: EditRow, allowEmptyTopicName: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { user_id: e.user_id, timestamp: e.timestamp };
  if (e.prev_content !== null) {
    out.prev_content = e.prev_content;
    out.prev_rendered_content = e.prev_rendered_content;
  }
  if (e.prev_channel_id !== null) {
    out.prev_stream = e.prev_channel_id;
    out.stream = e.channel_id;
  }
  if (e.prev_topic !== null) {
    out.prev_topic = displayTopic(e.prev_topic, allowEmptyTopicName);
    out.topic = displayTopic(e.topic ?? "", allowEmptyTopicName);
  }
  return out;
}

export function presentMessage(m: MessageRow, x: MessageExtras, opts: PresentMessageOptions): Record<string, unknown> {
  const isChannel = m.type === MESSAGE_TYPE.CHANNEL;
  const out: Record<string, unknown> = {
    id: m.id,
    type: isChannel ? "stream" : "private",
    content: opts.applyMarkdown ? m.rendered_content : m.content,
    content_type: opts.applyMarkdown ? "text/html" : "text/x-markdown",
    client: m.sending_client,
    avatar_url: avatarUrl(x.sender, { gravatar: opts.gravatar, clientGravatar: opts.clientGravatar, viewerSeesEmail: opts.viewerSeesSenderEmail }),
    display_recipient: x.displayRecipient,
    is_me_message: m.is_me_message,
    reactions: x.reactions,
    recipient_id: m.recipient_id,
    sender_email: x.sender.email,
    sender_full_name: x.sender.full_name,
    sender_id: m.sender_id,
    sender_realm_str: x.realmStringId,
    subject: isChannel ? displayTopic(m.subject, opts.allowEmptyTopicName) : "",
    submessages: x.submessages,
    timestamp: m.date_sent,
    topic_links: x.topicLinks,
    flags: flagNames(x.flags ?? 0).concat(x.flags === null ? ["read", "historical"] : []),
  };
  if (isChannel) out.stream_id = x.channelId;
  if (m.last_edit_time !== null) out.last_edit_timestamp = m.last_edit_time;
  if (m.last_moved_time !== null) out.last_moved_timestamp = m.last_moved_time;
  if (x.edits && x.edits.length > 0) {
    out.edit_history = [...x.edits].reverse().map((e) => presentEdit(e, opts.allowEmptyTopicName));
  }
  return out;
}

/**
 * A message object as a viewer who may not access its sender sees it (can_access_all_users_group;
 * Zulip's MessageDict.finalize_payload with can_access_sender false): "Unknown user", the
 * placeholder address and the unknown-user avatar. The sender's id stays.
 */
export function withInaccessibleSender(message: Record<string, unknown>, emailDomain: string): Record<string, unknown> {
  return {
    ...message,
    sender_full_name: INACCESSIBLE_USER_NAME,
    sender_email: inaccessibleUserEmail(message.sender_id as number, emailDomain),
    avatar_url: INACCESSIBLE_USER_AVATAR_PATH,
  };
}
