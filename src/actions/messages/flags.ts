/**
 * Personal message flags (Zulip's update-message-flags and the deprecated mark-as-read endpoints).
 * A message the user can read without a user_messages row behaves as if its flags were
 * `read | historical`; changing a flag away from that creates a "historical" row for it, which is
 * only allowed for messages the user may read. Each change publishes `update_message_flags` to the
 * user alone, listing exactly the messages whose flag changed.
 */
import { accessChannelById } from "../../access/channels.js";
import { canReadWithoutRow } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, invalidMessage } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { EDITABLE_FLAGS, FLAG_BITS, isFlagName, type FlagName } from "../../lib/flags.js";
import { normalizeTopic } from "../../lib/topics.js";
import { Membership } from "../../policy/group-settings.js";
import { getChannelsByRecipientIds, getRecipientMembers } from "../../store/channels.js";
import { transaction, type Tx } from "../../store/db.js";
import { getMessagesByIds, getUserMessageFlags } from "../../store/messages.js";
import { getSubscribedChannelIds } from "../../store/subscriptions.js";
import { withdrawPushes } from "../notifications/withdraw.js";
import { MESSAGE_TYPE, type MessageRow, type UserRow } from "../../store/types.js";
import {
  changeFlagBit,
  getUnreadMessageIds,
  insertUserMessagesIfMissing,
  markAllRead,
  userHasTopicMessages,
} from "../../store/user-messages.js";

export type FlagOp = "add" | "remove";

/** The flags a message without a row is treated as having (Zulip's DEFAULT_HISTORICAL_FLAGS). */
const DEFAULT_HISTORICAL_FLAGS = FLAG_BITS.read | FLAG_BITS.historical;

/** Zulip's checks, in its order: a known flag, one clients may change, then a known operation. */
export function checkFlagChange(flag: string, op: string): { flag: FlagName; op: FlagOp } {
  if (!isFlagName(flag) && flag !== "wildcard_mentioned") throw new ApiError(`Invalid flag: '${flag}'`);
  if (!isFlagName(flag) || !EDITABLE_FLAGS.includes(flag)) throw new ApiError(`Flag not editable: '${flag}'`);
  if (op !== "add" && op !== "remove") throw new ApiError(`Invalid message flag operation: '${op}'`);
  return { flag, op };
}

export interface FlagChangeResult {
  /** Messages whose flag actually changed, ascending. */
  changed: number[];
  /** For read/remove: channels skipped because the user is not subscribed (unread needs a subscription). */
  ignoredChannelIds: number[];
}

/** Historical rows need read access to each message; one error for missing and hidden alike. */
async function checkReadableWithoutRows(tx: Tx, user: UserRow, messages: readonly MessageRow[], expected: number): Promise<void> {
  if (messages.length !== expected) throw invalidMessage();
  const channels = await getChannelsByRecipientIds(tx, messages.map((m) => m.recipient_id));
  const membership = await Membership.load(tx, user);
  for (const m of messages) {
    const channel = channels.find((c) => c.recipient_id === m.recipient_id);
    if (m.realm_id !== user.realm_id || m.type !== MESSAGE_TYPE.CHANNEL || !channel || !(await canReadWithoutRow(tx, user, channel, membership))) {
      throw invalidMessage();
    }
  }
}

/**
 * Adds or removes one editable flag on the user's messages and publishes the change. Shared with
 * the narrow-based endpoint, which passes the ids it selected.
 */
export async function doUpdateMessageFlags(
  deps: AppDeps,
  tx: Tx,
  user: UserRow,
  op: FlagOp,
  flag: FlagName,
  messageIds: readonly number[],
): Promise<FlagChangeResult> {
  const bit = FLAG_BITS[flag];
  const target = op === "add" ? bit : 0;
  let ids = [...new Set(messageIds)];
  const ignoredChannelIds = new Set<number>();
  if (flag === "read" && op === "remove") {
    // Unread messages must lie in channels the user is subscribed to (Zulip's invariant).
    const subscribed = new Set(await getSubscribedChannelIds(tx, user.id));
    const channelMessages = (await getMessagesByIds(tx, ids)).filter((m) => m.type === MESSAGE_TYPE.CHANNEL);
    const channels = await getChannelsByRecipientIds(tx, channelMessages.map((m) => m.recipient_id));
    const skipped = new Set<number>();
    for (const m of channelMessages) {
      const channel = channels.find((c) => c.recipient_id === m.recipient_id);
      if (channel && !subscribed.has(channel.id)) {
        skipped.add(m.id);
        ignoredChannelIds.add(channel.id);
      }
    }
    ids = ids.filter((id) => !skipped.has(id));
  }
  const rows = await getUserMessageFlags(tx, user.id, ids);
  const changed = ids.filter((id) => ((rows.get(id) ?? DEFAULT_HISTORICAL_FLAGS) & bit) !== target).sort((a, b) => a - b);
  const withoutRows = changed.filter((id) => !rows.has(id));
  if ((DEFAULT_HISTORICAL_FLAGS & bit) !== target && withoutRows.length > 0) {
    await checkReadableWithoutRows(tx, user, await getMessagesByIds(tx, withoutRows), withoutRows.length);
    const flags = op === "add" ? DEFAULT_HISTORICAL_FLAGS | bit : DEFAULT_HISTORICAL_FLAGS & ~bit;
    await insertUserMessagesIfMissing(tx, withoutRows.map((message_id) => ({ user_id: user.id, message_id, flags })));
  }
  await changeFlagBit(
    tx,
    user.id,
    changed.filter((id) => rows.has(id)),
    bit,
    op === "add",
  );
  if (flag === "read" && op === "add") await withdrawPushes(deps, tx, user.id, changed);
  const event: Record<string, unknown> = { type: "update_message_flags", op, operation: op, flag, messages: changed, all: false };
  if (flag === "read" && op === "remove") event.message_details = await unreadDetails(tx, user, changed);
  publishOnCommit(tx, deps.events, event as { type: string }, [user.id]);
  return { changed, ignoredChannelIds: [...ignoredChannelIds].sort((a, b) => a - b) };
}

/**
 * What a client needs to put messages back into its unread counts (update_message_flags remove
 * `message_details`): the conversation and whether the user was mentioned.
 */
async function unreadDetails(tx: Tx, user: UserRow, ids: readonly number[]): Promise<Record<string, Record<string, unknown>>> {
  const messages = await getMessagesByIds(tx, ids);
  const recipientIds = messages.map((m) => m.recipient_id);
  const directRecipientIds = messages.filter((m) => m.type !== MESSAGE_TYPE.CHANNEL).map((m) => m.recipient_id);
  const [groups, channels, flags] = await Promise.all([
    getRecipientMembers(tx, directRecipientIds),
    getChannelsByRecipientIds(tx, recipientIds),
    getUserMessageFlags(tx, user.id, ids),
  ]);
  const mentionBits = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
  const out: Record<string, Record<string, unknown>> = {};
  for (const m of messages) {
    const detail: Record<string, unknown> = {};
    const channel = channels.find((c) => c.recipient_id === m.recipient_id);
    if (m.type === MESSAGE_TYPE.CHANNEL && channel) {
      Object.assign(detail, { type: "stream", stream_id: channel.id, topic: m.subject });
    } else {
      detail.type = "private";
      detail.user_ids = (groups.get(m.recipient_id) ?? []).filter((id) => id !== user.id);
    }
    if (((flags.get(m.id) ?? 0) & mentionBits) !== 0) detail.mentioned = true;
    out[String(m.id)] = detail;
  }
  return out;
}

/** Publishes the read-flag event for messages just marked read, and withdraws their pushes. */
async function publishRead(deps: AppDeps, tx: Tx, user: UserRow, messages: number[], all: boolean): Promise<void> {
  await withdrawPushes(deps, tx, user.id, all ? null : messages);
  publishOnCommit(tx, deps.events, { type: "update_message_flags", op: "add", operation: "add", flag: "read", messages, all }, [user.id]);
}

/** POST /messages/flags. */
export async function checkUpdateMessageFlags(
  deps: AppDeps,
  user: UserRow,
  input: { messages: number[]; op: string; flag: string },
): Promise<FlagChangeResult> {
  const { flag, op } = checkFlagChange(input.flag, input.op);
  return transaction(deps.store, (tx) => doUpdateMessageFlags(deps, tx, user, op, flag, input.messages));
}

/** POST /mark_all_as_read: the event says `all` and lists no ids, as clients reload anyway. */
export async function checkMarkAllAsRead(deps: AppDeps, user: UserRow): Promise<void> {
  await transaction(deps.store, async (tx) => {
    await markAllRead(tx, user.id);
    await publishRead(deps, tx, user, [], true);
  });
}

/**
 * POST /mark_stream_as_read and /mark_topic_as_read: the user's unread messages of a channel they
 * may read, or of one of its topics, which must hold a message of theirs.
 */
export async function checkMarkChannelAsRead(deps: AppDeps, user: UserRow, channelId: number, topicName?: string): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const { channel } = await accessChannelById(tx, user, channelId, { requireContent: true });
    const recipientId = channel.recipient_id as number;
    const topic = topicName === undefined ? undefined : normalizeTopic(topicName);
    if (topic !== undefined && !(await userHasTopicMessages(tx, user.id, recipientId, topic))) {
      throw new ApiError(`No such topic '${topicName}'`);
    }
    const unread = await getUnreadMessageIds(tx, user.id, { recipientId, topic });
    if (unread.length === 0) return;
    await changeFlagBit(tx, user.id, unread, FLAG_BITS.read, true);
    await publishRead(deps, tx, user, unread, false);
  });
}
