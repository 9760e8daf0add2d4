/**
 * Editing a message (Zulip's update-message, PATCH /messages/{id}): new content, a new topic
 * (resolving is a topic change to or from "✔ topic"), a new channel, or content and topic
 * together. Everything is validated in Zulip's order before the first write, inside one
 * transaction; then the message (and, by propagate_mode, its topic-mates) change, one edit-history
 * row is written per changed message, update_message goes out, and Notification Bot reports moves.
 */
import { createHash } from "node:crypto";
import { accessMessage } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import type { ChatEvent } from "../../events/bus.js";
import { ApiError, invalidMessage } from "../../errors.js";
import { EMPTY_TOPIC_DISPLAY_NAME, RESOLVED_TOPIC_PREFIX, normalizeTopic } from "../../lib/topics.js";
import { Membership } from "../../policy/group-settings.js";
import { transaction, type Tx } from "../../store/db.js";
import { getMessageForUpdate, insertMessageEdits, type NewMessageEdit } from "../../store/edits.js";
import { getSubmessagesForMessages } from "../../store/messages.js";
import { getLinkifiers } from "../../store/render-refs.js";
import type { ChannelRow, MessageRow, RealmRow, UserRow } from "../../store/types.js";
import { applyContentEdit, prepareContentEdit, type PreparedContent } from "./edit-content.js";
import { enqueueMessageNotifications } from "../notifications/enqueue.js";
import { getMutersOf } from "../../store/muted-users.js";
import { publishLostAccess, publishUnreadWithoutRows, publishUpdateMessage } from "./edit-events.js";
import { doRefreshFirstMessageId } from "../messages/first-message.js";
import { accessTargetChannel, checkContentEditAllowed, checkMoveAllowed } from "./edit-permissions.js";
import { topicLinks } from "../messages/message-views.js";
import { doMoveMessages, type MovePlan, type MoveResult, type PropagateMode } from "./move-messages.js";
import { sendMoveNotices } from "./move-notices.js";
import { carryTopicPolicies } from "./move-user-topics.js";
import { checkChannelTopic } from "../messages/send-message.js";

export interface UpdateMessageInput {
  content?: string;
  topic?: string;
  channelId?: number;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
  prevContentSha256?: string;
}

/** Topic as requested, with placeholders read as the empty topic but before truncation. */
function requestedTopic(raw: string): string {
  return normalizeTopic(raw) === "" ? "" : raw.trim();
}

const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Cn}]/u;

interface Payload {
  topic: string | undefined;
  channelId: number | undefined;
  isChannel: boolean;
  /** Widgets (polls, to-do lists) keep their state in submessages and cannot be edited. */
  isWidget: boolean;
}

/** Zulip's validate_message_edit_payload: the request's shape, before any permission check. */
function checkPayload(message: MessageRow, input: UpdateMessageInput, { topic, channelId, isChannel, isWidget }: Payload): void {
  if (topic === undefined && input.content === undefined && channelId === undefined) throw new ApiError("Nothing to change");
  if (!isChannel) {
    if (channelId !== undefined) throw new ApiError("Direct messages cannot be moved to channels.");
    if (topic !== undefined) throw new ApiError("Direct messages cannot have topics.");
  }
  if (input.propagateMode !== "change_one" && topic === undefined && channelId === undefined) {
    throw new ApiError("Invalid propagate_mode without topic edit");
  }
  if (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === RESOLVED_TOPIC_PREFIX + EMPTY_TOPIC_DISPLAY_NAME) {
    throw new ApiError("General chat cannot be marked as resolved");
  }
  const bad = topic === undefined ? -1 : [...topic].findIndex((ch) => UNPRINTABLE.test(ch));
  if (bad >= 0) throw new ApiError(`Invalid character in topic, at position ${bad + 1}!`);
  if (channelId !== undefined && input.content !== undefined) throw new ApiError("Cannot change message content while changing channel");
  if (input.content !== undefined && isWidget) throw new ApiError("Widgets cannot be edited.");
  if (input.prevContentSha256 !== undefined && input.prevContentSha256 !== createHash("sha256").update(message.content).digest("hex")) {
    throw new ApiError("'prev_content_sha256' value does not match the expected value.", "EXPECTATION_MISMATCH");
  }
}

/** Whether renaming `orig` to `target` only adds or removes the resolved marker. */
function resolveToggle(orig: string, target: string, requested: string): MovePlan["resolveToggle"] {
  const p = RESOLVED_TOPIC_PREFIX;
  if (target.startsWith(p) && !orig.startsWith(p) && requested.slice(p.length) === orig) return "resolved";
  if (orig.startsWith(p) && !target.startsWith(p) && orig.replace(/^[✔ ]+/u, "") === target) return "unresolved";
  return null;
}

export async function checkUpdateMessage(
  deps: AppDeps,
  realm: RealmRow,
  user: UserRow,
  messageId: number,
  input: UpdateMessageInput,
): Promise<{ detached_uploads: unknown[] }> {
  return transaction(deps.store, async (tx) => {
    const now = deps.clock.now();
    await getMessageForUpdate(tx, realm.id, messageId);
    const { message, channel } = await accessMessage(tx, user, messageId);
    if (channel?.deactivated) throw invalidMessage();
    const membership = await Membership.load(tx, user);
    if (input.content !== undefined) checkContentEditAllowed(realm, user, message, now);
    const requested = input.topic === undefined ? undefined : requestedTopic(input.topic);
    const topic = requested === message.subject ? undefined : requested;
    const channelId = input.channelId === channel?.id ? undefined : input.channelId;
    const isWidget = (await getSubmessagesForMessages(tx, [message.id])).length > 0;
    checkPayload(message, input, { topic, channelId, isChannel: channel !== null, isWidget });

    let plan: MovePlan | null = null;
    if (channel !== null && (topic !== undefined || channelId !== undefined)) {
      const target = channelId === undefined ? channel : await accessTargetChannel(tx, user, channelId, membership);
      const targetTopic = topic === undefined ? message.subject : normalizeTopic(topic);
      plan = {
        message,
        orig: channel,
        target,
        origTopic: message.subject,
        targetTopic,
        topicEdited: topic !== undefined,
        channelEdited: channelId !== undefined,
        resolveToggle: topic === undefined ? null : resolveToggle(message.subject, targetTopic, topic),
        propagateMode: input.propagateMode,
      };
      await checkMoveAllowed(tx, realm, membership, plan, now);
    }
    const prepared = input.content === undefined ? null : await prepareContentEdit(deps, tx, realm, message, channel, membership, input.content);
    if (plan !== null) await checkChannelTopic(tx, realm, plan.target, plan.targetTopic, membership);
    return doUpdateMessage(deps, tx, realm, membership, { message, channel, prepared, plan, input, now });
  });
}

interface Edit {
  message: MessageRow;
  channel: ChannelRow | null;
  prepared: PreparedContent | null;
  plan: MovePlan | null;
  input: UpdateMessageInput;
  now: number;
}

async function doUpdateMessage(deps: AppDeps, tx: Tx, realm: RealmRow, mover: Membership, e: Edit): Promise<{ detached_uploads: unknown[] }> {
  const { message, channel, plan, now } = e;
  const event: ChatEvent = {
    type: "update_message",
    user_id: mover.user.id,
    edit_timestamp: now,
    message_id: message.id,
    rendering_only: false,
  };
  const content = e.prepared === null ? null : await applyContentEdit(deps, tx, realm, message, e.prepared, now);
  if (content !== null) Object.assign(event, content.event);
  if (channel !== null) Object.assign(event, { stream_name: channel.name, stream_id: channel.id });
  let moved: MoveResult | null = null;
  if (plan !== null) {
    const current = e.prepared === null ? message : { ...message, content: e.prepared.content };
    moved = await doMoveMessages(tx, mover, { ...plan, message: current }, now);
    event.propagate_mode = plan.propagateMode;
    event.orig_subject = plan.origTopic;
    if (plan.topicEdited) {
      event.subject = plan.targetTopic;
      event.topic_links = topicLinks(plan.targetTopic, await getLinkifiers(tx, realm.id));
    }
    if (plan.channelEdited) event.new_stream_id = plan.target.id;
  }
  const blank: NewMessageEdit = {
    message_id: message.id,
    user_id: mover.user.id,
    timestamp: now,
    prev_content: null,
    prev_rendered_content: null,
    prev_topic: null,
    topic: null,
    prev_channel_id: null,
    channel_id: null,
  };
  if (e.prepared !== null && channel !== null && e.prepared.newlyMentioned.length > 0) {
    // A mention added by the edit notifies as it would have at send (Zulip's update path).
    const sent = { id: message.id, realmId: realm.id, senderId: message.sender_id, channel, topic: plan?.targetTopic ?? message.subject };
    await enqueueMessageNotifications(deps, tx, sent, e.prepared.newlyMentioned, await getMutersOf(tx, message.sender_id), { mentions: e.prepared.rendered, edit: true });
  }
  const history = (moved?.history ?? [blank]).map((row) => (row.message_id === message.id && content !== null ? { ...row, ...content.history } : row));
  await insertMessageEdits(tx, history);
  const changedIds = history.map((row) => row.message_id).sort((a, b) => a - b);
  event.message_ids = changedIds;
  const lostAccess = moved?.lostAccess ?? [];
  await publishUpdateMessage(deps, tx, event, message, {
    orig: channel,
    target: plan?.channelEdited ? plan.target : null,
    lostAccess,
  });
  if (plan !== null && moved !== null) {
    if (lostAccess.length > 0) publishLostAccess(deps, tx, plan.orig, plan.origTopic, changedIds, lostAccess);
    publishUnreadWithoutRows(deps, tx, moved.unreadWithoutRows);
    if (plan.channelEdited) for (const c of [plan.orig, plan.target]) await doRefreshFirstMessageId(deps, tx, c);
    await carryTopicPolicies(deps, tx, realm, plan, moved);
    await sendMoveNotices(deps, tx, realm, mover, plan, moved, {
      notifyOldThread: e.input.notifyOldThread,
      notifyNewThread: e.input.notifyNewThread,
      contentEdited: content !== null,
    });
  }
  return { detached_uploads: content?.detached ?? [] };
}
