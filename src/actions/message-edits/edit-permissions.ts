/**
 * Who may change a message, and until when (Zulip's update-message rules): content only by its
 * sender, while the organization allows editing and within message_content_edit_limit_seconds;
 * topics and channels by the group settings in policy/message-edits.ts, within the organization's
 * move time limits unless the mover is a moderator. Every check runs before the first write.
 */
import { accessChannelById, invalidChannelId } from "../../access/channels.js";
import { canReadWithoutRow } from "../../access/messages.js";
import { ApiError } from "../../errors.js";
import type { Membership } from "../../policy/group-settings.js";
import {
  EDIT_LIMIT_BUFFER_SECONDS,
  canEditTopic,
  canMoveOutOfChannel,
  canResolveTopics,
  exemptFromMoveLimits,
  pastLimit,
} from "../../policy/message-edits.js";
import type { Tx } from "../../store/db.js";
import { getTopicMessages } from "../../store/edits.js";
import type { ChannelRow, MessageRow, RealmRow, UserRow } from "../../store/types.js";
import type { MovePlan } from "./move-messages.js";

/**
 * Zulip's validate_user_can_edit_message. Saving an edit gets a grace period past the limit (the
 * edit_limit_buffer); announcing that one is typing an edit gets none (`buffer` 0).
 */
export function checkContentEditAllowed(realm: RealmRow, user: UserRow, message: MessageRow, now: number, buffer = EDIT_LIMIT_BUFFER_SECONDS): void {
  if (!realm.allow_message_editing) throw new ApiError("Your organization has turned off message editing");
  if (message.sender_id !== user.id) throw new ApiError("You don't have permission to edit this message");
  if (pastLimit(message.date_sent, now, realm.message_content_edit_limit_seconds, buffer)) {
    throw new ApiError("The time limit for editing this message has passed");
  }
}

/** The destination of a channel move: a channel whose content the mover may read. */
export async function accessTargetChannel(tx: Tx, user: UserRow, channelId: number, membership: Membership): Promise<ChannelRow> {
  const { channel } = await accessChannelById(tx, user, channelId, { requireContent: true, membership });
  if (channel.deactivated) throw invalidChannelId();
  return channel;
}

export async function checkMoveAllowed(tx: Tx, realm: RealmRow, m: Membership, req: MovePlan, now: number): Promise<void> {
  const { message, orig, target } = req;
  const resolving = req.resolveToggle !== null;
  const exempt = exemptFromMoveLimits(m);
  if (req.topicEdited) {
    if (resolving) {
      if (!canResolveTopics(m, realm, orig, target)) throw new ApiError("You don't have permission to resolve topics in this channel.");
    } else {
      if (!canEditTopic(m, realm, orig, target)) throw new ApiError("You don't have permission to edit this message");
      if (!exempt && pastLimit(message.date_sent, now, realm.move_messages_within_stream_limit_seconds, EDIT_LIMIT_BUFFER_SECONDS)) {
        throw new ApiError("The time limit for editing this message's topic has passed.");
      }
    }
  }
  if (req.channelEdited) {
    if (!canMoveOutOfChannel(m, realm, orig)) throw new ApiError("You don't have permission to move this message");
    // The mover already reads the destination (accessTargetChannel); posting there is the group setting.
    if (!m.has(target.can_send_message_group_id)) throw new ApiError("You do not have permission to post in this channel.");
    if (!exempt && pastLimit(message.date_sent, now, realm.move_messages_between_streams_limit_seconds, EDIT_LIMIT_BUFFER_SECONDS)) {
      throw new ApiError("The time limit for editing this message's channel has passed");
    }
  }
  if (req.propagateMode === "change_all" && !exempt && !resolving) {
    await checkWholeTopicMovable(tx, realm, m, req, now);
  }
}

/**
 * change_all of a topic whose older messages are past a move time limit: Zulip refuses with the
 * part the user could move (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED). Only messages the user can see
 * count, so protected history does not leak its size.
 */
async function checkWholeTopicMovable(tx: Tx, realm: RealmRow, m: Membership, req: MovePlan, now: number): Promise<void> {
  const limits: number[] = [];
  if (req.topicEdited && realm.move_messages_within_stream_limit_seconds !== null) limits.push(realm.move_messages_within_stream_limit_seconds);
  if (req.channelEdited && realm.move_messages_between_streams_limit_seconds !== null) limits.push(realm.move_messages_between_streams_limit_seconds);
  if (limits.length === 0) return;
  const deadline = Math.min(...limits) + EDIT_LIMIT_BUFFER_SECONDS;
  const fullHistory = await canReadWithoutRow(tx, m.user, req.orig, m);
  const inTopic = await getTopicMessages(tx, req.message.recipient_id, req.origTopic, fullHistory ? {} : { withRowFor: m.user.id });
  const allowed = inTopic.filter((msg) => now - msg.date_sent <= deadline);
  if (allowed.length === inTopic.length) return;
  throw new ApiError(
    `You only have permission to move the ${allowed.length}/${inTopic.length} most recent messages in this topic.`,
    "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
    400,
    {
      first_message_id_allowed_to_move: allowed.length > 0 ? allowed[0].id : null,
      total_messages_in_topic: inTopic.length,
      total_messages_allowed_to_move: allowed.length,
    },
  );
}
