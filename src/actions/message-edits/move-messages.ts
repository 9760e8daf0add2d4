/**
 * Moving channel messages to another topic and/or channel (update-message with `topic` or
 * `stream_id`). propagate_mode picks the messages: the target alone, it and the later messages of
 * its topic, or the whole topic (topics match case-insensitively); a channel move takes only the
 * messages the mover can see. A channel move also moves the per-user rows: users who cannot read
 * the destination lose theirs (and get `delete_message`), subscribers of the old channel who are
 * not subscribed to the destination lose theirs too, and a destination with protected history
 * gives each current subscriber a row, read, so they keep access.
 */
import { canReadWithoutRow } from "../../access/messages.js";
import type { NewMessageEdit } from "../../store/edits.js";
import type { Membership } from "../../policy/group-settings.js";
import { isGuest } from "../../policy/roles.js";
import type { Tx } from "../../store/db.js";
import { getSubscriptionUserIds, getTopicMessages, moveMessageRows } from "../../store/edits.js";
import { reindexMessage } from "../../store/messages.js";
import type { ChannelRow, MessageRow } from "../../store/types.js";
import { deleteUserMessageRows, getUserIdsWithRows, getUserMessageRows, insertUserMessagesIfMissing } from "../../store/user-messages.js";
import { getUsersByIds } from "../../store/users.js";
import { FLAG_BITS } from "../../lib/flags.js";

export type PropagateMode = "change_one" | "change_later" | "change_all";

export interface MovePlan {
  message: MessageRow;
  orig: ChannelRow;
  target: ChannelRow;
  origTopic: string;
  targetTopic: string;
  topicEdited: boolean;
  channelEdited: boolean;
  /** The topic change only adds or removes the resolved marker (a resolve is not a move). */
  resolveToggle: "resolved" | "unresolved" | null;
  propagateMode: PropagateMode;
}

export interface MoveResult {
  /** The moved messages as they were before the move, oldest first. */
  moved: MessageRow[];
  /** Edit-history rows, one per moved message (not yet written). */
  history: NewMessageEdit[];
  /** Users who can no longer read the moved messages. */
  lostAccess: number[];
  /**
   * Users who can still read the moved messages but lost their rows (old-channel subscribers not
   * subscribed to the destination), with the ids that were unread for them: without a row a
   * message reads as read, so they get update_message_flags (edit-events.ts).
   */
  unreadWithoutRows: Map<number, number[]>;
  /**
   * No message the mover can see is left in the old topic: the whole topic moved. Judged by what
   * the mover sees, so it reveals nothing about history they cannot read.
   */
  movedAll: boolean;
}

/** How many messages of a topic the user can see, leaving out `exclude`. */
export async function countVisibleInTopic(tx: Tx, user: Membership, channel: ChannelRow, topic: string, exclude: ReadonlySet<number>): Promise<number> {
  const full = await canReadWithoutRow(tx, user.user, channel, user);
  const messages = await getTopicMessages(tx, channel.recipient_id as number, topic, full ? {} : { withRowFor: user.user.id });
  return messages.filter((m) => !exclude.has(m.id)).length;
}

async function messagesToMove(tx: Tx, mover: Membership, plan: MovePlan): Promise<MessageRow[]> {
  if (plan.propagateMode === "change_one") return [plan.message];
  const onlyVisible = plan.channelEdited && !(await canReadWithoutRow(tx, mover.user, plan.orig, mover));
  const found = await getTopicMessages(tx, plan.orig.recipient_id as number, plan.origTopic, {
    fromId: plan.propagateMode === "change_later" ? plan.message.id : undefined,
    withRowFor: onlyVisible ? mover.user.id : undefined,
  });
  return found.some((m) => m.id === plan.message.id) ? found : [plan.message, ...found].sort((a, b) => a.id - b.id);
}

/** Whether a user may read a channel's messages without being subscribed (spec: public channels for non-guests). */
const readsUnsubscribed = (channel: ChannelRow, role: number) => channel.is_web_public || (!channel.invite_only && !isGuest({ role }));

/** Re-homes the per-user rows of messages moved to another channel. */
async function moveUserRows(tx: Tx, plan: MovePlan, ids: number[]): Promise<Pick<MoveResult, "lostAccess" | "unreadWithoutRows">> {
  const { orig, target } = plan;
  const [oldSubscribers, newSubscribers, holders] = await Promise.all([
    getSubscriptionUserIds(tx, orig.recipient_id as number, "everSubscribed"),
    getSubscriptionUserIds(tx, target.recipient_id as number, "active"),
    getUserIdsWithRows(tx, ids),
  ]);
  const subscribedToTarget = new Set(newSubscribers);
  const wasSubscribed = new Set(oldSubscribers);
  const candidates = [...new Set([...oldSubscribers, ...holders])].filter((id) => !subscribedToTarget.has(id));
  const users = await getUsersByIds(tx, plan.message.realm_id, candidates);
  const lostAccess = users.filter((u) => !readsUnsubscribed(target, u.role)).map((u) => u.id);
  const losingRows = [...new Set([...lostAccess, ...candidates.filter((id) => wasSubscribed.has(id))])];
  const keepingAccess = new Set(losingRows.filter((id) => !lostAccess.includes(id)));
  const unreadWithoutRows = new Map<number, number[]>();
  for (const row of await getUserMessageRows(tx, ids)) {
    if (!keepingAccess.has(row.user_id) || (row.flags & FLAG_BITS.read) !== 0) continue;
    unreadWithoutRows.set(row.user_id, [...(unreadWithoutRows.get(row.user_id) ?? []), row.message_id].sort((a, b) => a - b));
  }
  await deleteUserMessageRows(tx, losingRows, ids);
  if (!target.history_public_to_subscribers) {
    await insertUserMessagesIfMissing(
      tx,
      newSubscribers.flatMap((user_id) => ids.map((message_id) => ({ user_id, message_id, flags: FLAG_BITS.read }))),
    );
  }
  return { lostAccess: lostAccess.sort((a, b) => a - b), unreadWithoutRows };
}

export async function doMoveMessages(tx: Tx, mover: Membership, plan: MovePlan, now: number): Promise<MoveResult> {
  const moved = await messagesToMove(tx, mover, plan);
  const ids = moved.map((m) => m.id);
  const subject = plan.topicEdited ? plan.targetTopic : undefined;
  const movedAt = plan.resolveToggle !== null && !plan.channelEdited ? null : now;
  await moveMessageRows(tx, ids, { recipientId: plan.target.recipient_id as number, subject }, movedAt);
  if (subject !== undefined) {
    for (const m of moved) await reindexMessage(tx, m.id, m, { subject, content: m.content });
  }
  const { lostAccess, unreadWithoutRows } = plan.channelEdited ? await moveUserRows(tx, plan, ids) : { lostAccess: [], unreadWithoutRows: new Map<number, number[]>() };
  const history = moved.map((m) => ({
    message_id: m.id,
    user_id: mover.user.id,
    timestamp: now,
    prev_content: null,
    prev_rendered_content: null,
    prev_topic: plan.topicEdited ? m.subject : null,
    topic: plan.topicEdited ? plan.targetTopic : null,
    prev_channel_id: plan.channelEdited ? plan.orig.id : null,
    channel_id: plan.channelEdited ? plan.target.id : null,
  }));
  const movedAll =
    plan.propagateMode === "change_all" || (await countVisibleInTopic(tx, mover, plan.orig, plan.origTopic, new Set(ids))) === 0;
  return { moved, history, lostAccess, unreadWithoutRows, movedAll };
}
