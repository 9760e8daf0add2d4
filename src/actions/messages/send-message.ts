/**
 * Sending a message (Zulip's send-message): validate, render once, write one message row and one
 * user_messages row per recipient with their flags, then publish `message` events after commit.
 */
import { checkSenderCanAccessRecipients } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { queueOutgoingWebhooks } from "../outgoing-webhooks/triggers.js";
import { doAnswerWelcomeBotMessage } from "../bots/welcome-bot.js";
import { ApiError, missingParam } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { dayOf } from "../../lib/channel-traffic.js";
import { FLAG_BITS, flagNames } from "../../lib/flags.js";
import { groupBy } from "../../lib/group-by.js";
import { normalizeTopic } from "../../lib/topics.js";
import { settingOf } from "../../lib/user-settings.js";
import { Membership } from "../../policy/group-settings.js";
import { canPostToChannel } from "../../policy/channels.js";
import { hasMutedSender } from "../../policy/muted-users.js";
import { isRealmAdmin } from "../../policy/roles.js";
import { transaction, type Tx } from "../../store/db.js";
import { getGroupMemberIds } from "../../store/groups.js";
import { getAlertWordsForUsers, getTopicParticipantIds, insertMessage, insertUserMessages, topicExists } from "../../store/messages.js";
import { countChannelMessage } from "../../store/channel-traffic.js";
import { getMutersOf } from "../../store/muted-users.js";
import { getSubscriberIds, isSubscribed } from "../../store/subscriptions.js";
import { getLinkifiers } from "../../store/render-refs.js";
import { MESSAGE_TYPE, type ChannelRow, type MessageRow, type RealmRow, type UserRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import {
  checkMessageParams,
  directRecipientId,
  parseChannelTo,
  parseDirectTo,
  resolveChannelTo,
  resolveDirectRecipients,
} from "./message-recipients.js";
import type { RenderResult } from "../../markdown/index.js";
import { presentNewMessage } from "./message-views.js";
import { claimAttachments } from "../uploads/attachments.js";
import { enqueueMessageNotifications } from "../notifications/enqueue.js";
import { doSetFirstMessageId } from "./first-message.js";
import { doAutomaticVisibilityOnSend, doFollowWhereMentioned, startsTopicIfAsked } from "../channels/automatic-visibility.js";
import { renderContent } from "./render.js";
import { doAddWidgetOnSend, type Submessage } from "./submessages.js";
import { publishAccessGainedByDirectMessage, senderHiddenFrom } from "../users/user-access-events.js";

export const MAX_MESSAGE_LENGTH = 10000;
/** Zulip's wildcard_mention_large_stream_threshold: above it, @all needs can_mention_many_users_group. */
const LARGE_CHANNEL_THRESHOLD = 15;

export interface SendMessageInput {
  type: string;
  to: string;
  content: string;
  topic?: string;
  queueId?: string;
  localId?: string;
  readBySender?: boolean;
  client: string;
}

/** Zulip strips trailing whitespace, refuses empty or NUL-bearing content, truncates over-long content. */
export function normalizeContent(raw: string): string {
  const content = raw.trimEnd();
  if (content.trim() === "") throw new ApiError("Message must not be empty");
  if (content.includes("\u0000")) throw new ApiError("Message must not contain null bytes");
  return truncateContent(content);
}

/** Zulip's truncate_content: past `maxLength` characters, the end gives way to a marker. */
export function truncateContent(content: string, maxLength = MAX_MESSAGE_LENGTH): string {
  if (content.length <= maxLength) return content;
  // Counted in code points as Python does, walking only as far as the limit (not the whole text).
  const marker = "\n[message truncated]";
  const keep = maxLength - marker.length;
  let cut = 0;
  for (let at = 0, count = 0; at < content.length; count++) {
    if (count === keep) cut = at;
    if (count === maxLength) return content.slice(0, cut) + marker;
    at += (content.codePointAt(at) as number) > 0xffff ? 2 : 1;
  }
  return content;
}

function effectiveTopicsPolicy(realm: RealmRow, channel: ChannelRow): string {
  return channel.topics_policy === "inherit" ? realm.topics_policy : channel.topics_policy;
}

export async function checkChannelTopic(tx: Tx, realm: RealmRow, channel: ChannelRow, topic: string, membership: Membership): Promise<void> {
  const policy = effectiveTopicsPolicy(realm, channel);
  if (topic === "" && policy === "disable_empty_topic") {
    throw new ApiError("Sending messages to the general chat is not allowed in this channel.");
  }
  if (topic !== "" && policy === "empty_topic_only") {
    throw new ApiError("Only the general chat topic is allowed in this channel.");
  }
  if (!membership.has(channel.can_create_topic_group_id) && !(await topicExists(tx, channel.recipient_id as number, topic))) {
    throw new ApiError("You do not have permission to create new topics in this channel.");
  }
}

export interface Delivery {
  recipientId: number;
  channel: ChannelRow | null;
  topic: string;
  /** Users who get a user_messages row (the sender included). */
  userIds: number[];
  senderSubscribed: boolean;
  /** A direct message's participants' rows, when the caller has them (the event needs their names). */
  participants?: UserRow[];
}

async function channelDelivery(tx: Tx, realm: RealmRow, sender: UserRow, input: SendMessageInput, membership: Membership): Promise<Delivery> {
  if (input.topic === undefined) throw missingParam("topic");
  const channel = await resolveChannelTo(tx, sender, parseChannelTo(input.to), membership);
  const recipientId = channel.recipient_id as number;
  const subscribed = await isSubscribed(tx, sender.id, recipientId);
  if (!canPostToChannel({ membership, subscribed }, channel)) {
    if (channel.deactivated || (!subscribed && (channel.invite_only || membership.user.role === 600))) {
      throw new ApiError(`Not authorized to send to channel '${channel.name}'`);
    }
    throw new ApiError("You do not have permission to post in this channel.");
  }
  const topic = normalizeTopic(input.topic);
  await checkChannelTopic(tx, realm, channel, topic, membership);
  const subscribers = await getSubscriberIds(tx, recipientId);
  return { recipientId, channel, topic, userIds: [...new Set([...subscribers, sender.id])], senderSubscribed: subscribed };
}

/** `deps` null: only checking (a scheduled message being scheduled), nothing is announced yet. */
async function directDelivery(deps: AppDeps | null, tx: Tx, realm: RealmRow, sender: UserRow, input: SendMessageInput, membership: Membership): Promise<Delivery> {
  const recipients = await resolveDirectRecipients(tx, sender, parseDirectTo(input.to), (rows) => checkSenderCanAccessRecipients(tx, sender, rows));
  const participantIds = [...new Set([sender.id, ...recipients.map((u) => u.id)])];
  // Zulip: a conversation is allowed when the sender, or every other participant... we apply the
  // documented rule: someone in the conversation must be in direct_message_permission_group.
  const othersAreBots = recipients.every((u) => u.is_bot || u.id === sender.id);
  if (!othersAreBots && !membership.has(realm.direct_message_permission_group_id) && !isRealmAdmin(sender)) {
    throw new ApiError("You do not have permission to send direct messages to this recipient.");
  }
  const participants = [...new Map([sender, ...recipients].map((u) => [u.id, u])).values()];
  // Before the conversation exists: guests in it meet the others (can_access_all_users_group, FL 228).
  if (deps) await publishAccessGainedByDirectMessage(deps, tx, realm.id, participants);
  const recipientId = await directRecipientId(tx, realm.id, participantIds);
  return { recipientId, channel: null, topic: "", userIds: participantIds, senderSubscribed: true, participants };
}

export async function wildcardFlags(
  tx: Tx,
  delivery: Delivery,
  wildcard: "stream" | "topic" | null,
  membership: Membership,
  realm: RealmRow,
): Promise<{ bit: number; userIds: number[] }> {
  if (wildcard === null) return { bit: 0, userIds: [] };
  if (delivery.channel && delivery.userIds.length > LARGE_CHANNEL_THRESHOLD && !membership.has(realm.can_mention_many_users_group_id)) {
    throw wildcard === "stream"
      ? new ApiError("You do not have permission to use channel wildcard mentions in this channel.", "STREAM_WILDCARD_MENTION_NOT_ALLOWED")
      : new ApiError("You do not have permission to use topic wildcard mentions in this topic.", "TOPIC_WILDCARD_MENTION_NOT_ALLOWED");
  }
  if (wildcard === "stream") return { bit: FLAG_BITS.stream_wildcard_mentioned, userIds: delivery.userIds };
  const participants = delivery.channel ? await getTopicParticipantIds(tx, delivery.recipientId, delivery.topic) : delivery.userIds;
  return { bit: FLAG_BITS.topic_wildcard_mentioned, userIds: participants };
}

/**
 * Where a message of `type` to `to` (and `topic`) goes, once every check of sending has passed:
 * the recipients exist, and the sender may post there (channel permissions, topic policy) or
 * message them. Scheduled messages go through it when scheduled and again when delivered.
 */
export async function checkDelivery(
  deps: AppDeps | null,
  tx: Tx,
  realm: RealmRow,
  sender: UserRow,
  input: Pick<SendMessageInput, "type" | "to" | "topic">,
  membership: Membership,
): Promise<Delivery> {
  const kind = checkMessageParams(input.type);
  const full = { ...input, content: "", client: "" };
  return kind === "channel" ? channelDelivery(tx, realm, sender, full, membership) : directDelivery(deps, tx, realm, sender, full, membership);
}

export async function checkSendMessage(
  deps: AppDeps,
  realm: RealmRow,
  sender: UserRow,
  input: SendMessageInput,
): Promise<{ id: number; automatic_new_visibility_policy?: number }> {
  checkMessageParams(input.type);
  const content = normalizeContent(input.content);
  return transaction(deps.store, async (tx) => {
    const membership = await Membership.load(tx, sender);
    const delivery = await checkDelivery(deps, tx, realm, sender, input, membership);
    const outcome: NonNullable<SendOptions["outcome"]> = {};
    const id = await doSendMessage(deps, tx, realm, sender, membership, delivery, content, {
      client: input.client,
      readBySender: input.readBySender,
      queueId: input.queueId,
      localId: input.localId,
      outcome,
    });
    // Present only when sending followed or unmuted the topic for the sender (FL 218).
    return outcome.automaticNewVisibilityPolicy === undefined ? { id } : { id, automatic_new_visibility_policy: outcome.automaticNewVisibilityPolicy };
  });
}

export interface SendOptions {
  client: string;
  readBySender?: boolean;
  /** Other recipients whose copy starts read (Zulip does this for notification-bot messages). */
  readByUserIds?: readonly number[];
  /** Whose channel access decides which #channel links render; the sender by default. */
  renderAsUserId?: number;
  queueId?: string;
  localId?: string;
  /** Filled in with the sender's automatic topic visibility change, if any (POST /messages' automatic_new_visibility_policy). */
  outcome?: { automaticNewVisibilityPolicy?: number };
}

/** Users a rendering mentions, user-group mentions expanded to the groups' direct members. */
export async function mentionedUserIds(tx: Tx, rendered: Pick<RenderResult, "mentionedUserIds" | "mentionedGroupIds">): Promise<Set<number>> {
  const mentioned = new Set(rendered.mentionedUserIds);
  for (const userId of await getGroupMemberIds(tx, [...rendered.mentionedGroupIds])) mentioned.add(userId);
  return mentioned;
}

/** A message rendered for its recipients, with the checks that need the rendering passed. */
export interface RenderedMessage {
  rendered: RenderResult;
  alertWords: Map<number, string[]>;
  wildcard: { bit: number; userIds: number[] };
}

/**
 * Renders a message for its delivery (the recipients' alert words highlighted) and checks what
 * only the rendering reveals: wildcard mentions the sender may not use. Throws before any write.
 */
export async function renderForDelivery(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  sender: UserRow,
  membership: Membership,
  delivery: Delivery,
  content: string,
  opts: Pick<SendOptions, "renderAsUserId">,
): Promise<RenderedMessage> {
  const alertWords = await getAlertWordsForUsers(tx, delivery.userIds.filter((id) => id !== sender.id));
  const rendered = await renderContent({
    tx,
    realm,
    config: deps.config,
    senderId: opts.renderAsUserId ?? sender.id,
    content,
    alertWords: [...new Set([...alertWords.values()].flat())],
    translateEmoticons: Boolean(settingOf(sender.settings, "translate_emoticons")),
  });
  const wildcard = await wildcardFlags(tx, delivery, rendered.wildcard, membership, realm);
  return { rendered, alertWords, wildcard };
}

/**
 * Writes an already-validated message: renders it once, inserts the message and one
 * user_messages row per recipient with their flags, and publishes `message` events after commit.
 */
export async function doSendMessage(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  sender: UserRow,
  membership: Membership,
  delivery: Delivery,
  content: string,
  opts: SendOptions,
): Promise<number> {
  const { rendered, alertWords, wildcard } = await renderForDelivery(deps, tx, realm, sender, membership, delivery, content, opts);
  const message: Omit<MessageRow, "id"> = {
    realm_id: realm.id,
    sender_id: sender.id,
    recipient_id: delivery.recipientId,
    type: delivery.channel ? MESSAGE_TYPE.CHANNEL : MESSAGE_TYPE.DIRECT,
    subject: delivery.topic,
    content,
    rendered_content: rendered.html,
    date_sent: deps.clock.now(),
    sending_client: opts.client,
    last_edit_time: null,
    last_moved_time: null,
    has_attachment: rendered.hasAttachment,
    has_image: rendered.hasImage,
    has_link: rendered.hasLink,
    is_me_message: rendered.isMeMessage,
  };
  const startsTopic = await startsTopicIfAsked(tx, sender, delivery.channel, delivery.topic);
  const messageId = await insertMessage(tx, message);
  if (delivery.channel) await countChannelMessage(tx, delivery.channel.id, dayOf(message.date_sent));
  if (delivery.channel && delivery.channel.first_message_id === null) await doSetFirstMessageId(deps, tx, delivery.channel, messageId, delivery.userIds);
  await claimAttachments(tx, deps.events, realm, sender.id, messageId, rendered.attachmentPathIds);
  const mentioned = await mentionedUserIds(tx, rendered);
  const found = new Set(rendered.alertWordsFound.map((w) => w.toLowerCase()));
  const wildcardUsers = new Set(wildcard.userIds);
  const readBy = new Set(opts.readByUserIds ?? []);
  // Recipients who muted the sender get the message already read (FL 48).
  const mutedSenderBy = await getMutersOf(tx, sender.id);
  const rows = delivery.userIds.map((userId) => {
    let flags = 0;
    if (userId === sender.id) {
      if (opts.readBySender !== false) flags |= FLAG_BITS.read;
      if (!delivery.senderSubscribed) flags |= FLAG_BITS.historical;
    }
    if (readBy.has(userId) || hasMutedSender(userId, sender.id, mutedSenderBy)) flags |= FLAG_BITS.read;
    if (mentioned.has(userId)) flags |= FLAG_BITS.mentioned;
    if (wildcardUsers.has(userId)) flags |= wildcard.bit;
    if ((alertWords.get(userId) ?? []).some((w) => found.has(w.toLowerCase()))) flags |= FLAG_BITS.has_alert_word;
    return { user_id: userId, message_id: messageId, flags };
  });
  await insertUserMessages(tx, rows);
  const submessages = await doAddWidgetOnSend(tx, messageId, sender.id, content);
  const sent = { id: messageId, realmId: realm.id, senderId: sender.id, channel: delivery.channel, topic: delivery.topic };
  await enqueueMessageNotifications(deps, tx, sent, rows, mutedSenderBy, { mentions: rendered });
  await publishMessageEvents(deps, tx, realm, { ...message, id: messageId }, { sender, delivery, rows, submessages }, opts);
  await queueOutgoingWebhooks(deps, tx, sender, { id: messageId, isChannel: delivery.channel !== null }, mentioned, delivery.userIds);
  if (delivery.channel === null && !sender.is_bot) await doAnswerWelcomeBotMessage(deps, tx, realm, sender, delivery.userIds, content);
  if (delivery.channel) {
    const policy = await doAutomaticVisibilityOnSend(deps, tx, sender, delivery.channel, delivery.topic, startsTopic);
    if (policy !== null && opts.outcome) opts.outcome.automaticNewVisibilityPolicy = policy;
    await doFollowWhereMentioned(deps, tx, realm.id, delivery.channel, delivery.topic, rendered.mentionedUserIds, delivery.userIds);
  }
  return messageId;
}

/**
 * One `message` event per distinct flag set (the message body is shared); the queue that sent it
 * also learns its local_id (events/queue.ts reads `sender_queue_id`/`local_message_id` and strips
 * them for every other queue). The message object is built from what the send already holds,
 * without reading the message back (message-views.ts presentNewMessage).
 */
async function publishMessageEvents(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  message: MessageRow,
  sent: { sender: UserRow; delivery: Delivery; rows: Array<{ user_id: number; flags: number }>; submessages: Submessage[] },
  opts: Pick<SendOptions, "queueId" | "localId">,
): Promise<void> {
  const { sender, delivery, rows, submessages } = sent;
  const participants = delivery.channel ? [] : (delivery.participants ?? (await getUsersByIds(tx, realm.id, delivery.userIds)));
  const html = presentNewMessage(
    realm,
    message,
    { sender, channel: delivery.channel, participants, submessages, linkifiers: await getLinkifiers(tx, realm.id) },
    { applyMarkdown: true, gravatar: deps.config.enableGravatar, clientGravatar: false, allowEmptyTopicName: true },
  );
  delete html.flags;
  // A sender who is not subscribed may be one some guests cannot access (Zulip's
  // user_ids_without_access_to_sender): they get the message from "Unknown user".
  const hidden = await senderHiddenFrom(deps, tx, realm, sender, delivery);
  for (const [flags, userIds] of groupBy(rows, (r) => r.flags, (r) => r.user_id)) {
    for (const [ids, body] of [[userIds.filter((id) => !hidden.ids.has(id)), html], [userIds.filter((id) => hidden.ids.has(id)), hidden.message(html)]] as const) {
      const event = { type: "message", message: body, flags: flagNames(flags), raw_content: message.content, sender_queue_id: opts.queueId, local_message_id: opts.localId };
      publishOnCommit(tx, deps.events, event, ids);
    }
  }
}
