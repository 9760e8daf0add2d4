/**
 * Scheduled messages (Zulip's get/create/update/delete-scheduled-message; FL 173, 179, 181, 184):
 * a message the server sends for the user later (scheduled-delivery.ts sends it). Scheduling checks
 * the message exactly as sending it now would (send-message.ts checkDelivery, renderForDelivery:
 * recipients, channel and direct-message permissions, topic policies, wildcard mentions), and
 * delivery checks it again. Only the sender sees or changes their scheduled messages; their
 * clients hear of every change (scheduled_messages add / update / remove), and POST /register
 * lists the undelivered ones, failed ones included (FL 181).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError, invalidParam } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { Membership } from "../../policy/group-settings.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import {
  DELIVERY_TYPE,
  deleteScheduledMessage,
  getOwnScheduledMessage,
  insertScheduledMessage,
  listUndelivered,
  setScheduledAttachments,
  updateScheduledMessage,
  type ScheduledMessageRow,
} from "../../store/scheduled-messages.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { claimableAttachments } from "../uploads/attachments.js";
import { checkMessageParams } from "./message-recipients.js";
import { checkDelivery, normalizeContent, renderForDelivery } from "./send-message.js";

/** The last second Python's datetime can hold (9999-12-31T23:59:59Z): Zulip cannot schedule past it. */
const MAX_DELIVERY_TIMESTAMP = 253_402_300_799;

export type ScheduledKind = "channel" | "direct";

/** Where a scheduled message goes: a channel and topic, or users by id (the sender implied). */
export type ScheduledTarget = { kind: "channel"; channelId: number; topic: string | undefined } | { kind: "direct"; userIds: number[] };

/** The scheduled message object of Zulip's API (OpenAPI ScheduledMessage). */
export function presentScheduledMessage(row: ScheduledMessageRow): Record<string, unknown> {
  const common = {
    scheduled_message_id: row.id,
    type: row.recipient_type,
    to: row.recipient_type === "stream" ? row.channel_id : (JSON.parse(row.to_user_ids) as number[]),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: Number(row.scheduled_timestamp),
    failed: row.failed,
  };
  return row.recipient_type === "stream" ? { ...common, topic: row.topic } : common;
}

const scheduledMessageNotFound = () => new ApiError("Scheduled message does not exist", "BAD_REQUEST", 404);

/** Zulip's DeliveryTimeNotInFutureError; times past what Zulip can represent are refused too. */
export function checkDeliveryTime(deps: AppDeps, timestamp: number): number {
  if (timestamp <= deps.clock.now()) throw new ApiError("Scheduled delivery time must be in the future.");
  if (timestamp > MAX_DELIVERY_TIMESTAMP) throw invalidParam("scheduled_delivery_timestamp is too large");
  return timestamp;
}

/** Zulip's extract_stream_id / extract_direct_message_recipient_ids for the JSON `to`. */
export function parseTarget(kind: ScheduledKind, to: unknown, topic: string | undefined): ScheduledTarget {
  if (kind === "channel") {
    const id = Array.isArray(to) && to.length === 1 ? to[0] : to;
    if (!Number.isSafeInteger(id)) throw new ApiError("Invalid data type for channel ID");
    return { kind, channelId: id as number, topic };
  }
  const ids = Number.isSafeInteger(to) ? [to] : to;
  if (!Array.isArray(ids)) throw new ApiError("Invalid data type for recipients");
  if (!ids.every((id) => Number.isSafeInteger(id))) throw new ApiError("Recipient list may only contain user IDs");
  return { kind, userIds: [...new Set(ids as number[])] };
}

/** A message to be sent later, as checked for sending. */
export interface CheckedScheduledMessage {
  /** The columns that say where it goes and what it says. */
  columns: {
    recipient_type: "stream" | "private";
    channel_id: number | null;
    to_user_ids: string;
    topic: string;
    content: string;
    rendered_content: string;
  };
  /** Uploads it links, kept from the unclaimed-upload cleanup until it is sent. */
  attachmentIds: number[];
  /** Zulip's is_message_to_self: a direct message whose only participant is the sender. */
  toSelf: boolean;
}

/**
 * Checks a message to be sent later as sending it now would be checked (Zulip's check_message),
 * without writing it, and returns what the schedule stores. Throws the send path's errors.
 */
export async function checkScheduledMessage(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  sender: UserRow,
  target: ScheduledTarget,
  rawContent: string,
): Promise<CheckedScheduledMessage> {
  const content = normalizeContent(rawContent);
  const membership = await Membership.load(tx, sender);
  // Checked only: access is announced when the message is sent.
  const delivery = await checkDelivery(
    null,
    tx,
    realm,
    sender,
    target.kind === "channel"
      ? { type: "stream", to: String(target.channelId), topic: target.topic }
      : { type: "private", to: JSON.stringify(target.userIds) },
    membership,
  );
  const { rendered } = await renderForDelivery(deps, tx, realm, sender, membership, delivery, content, {});
  const others = delivery.userIds.filter((id) => id !== sender.id).sort((a, b) => a - b);
  return {
    columns: {
      recipient_type: delivery.channel ? "stream" : "private",
      channel_id: delivery.channel?.id ?? null,
      to_user_ids: JSON.stringify(delivery.channel ? [] : others.length > 0 ? others : [sender.id]),
      topic: delivery.topic,
      content,
      rendered_content: rendered.html,
    },
    attachmentIds: (await claimableAttachments(tx, realm, sender.id, rendered.attachmentPathIds)).map((a) => a.id),
    toSelf: !delivery.channel && others.length === 0,
  };
}

/** The stored target of a scheduled message, for an edit that changes only some of it. */
function storedTarget(row: ScheduledMessageRow): ScheduledTarget {
  return row.recipient_type === "stream"
    ? { kind: "channel", channelId: row.channel_id as number, topic: row.topic }
    : { kind: "direct", userIds: JSON.parse(row.to_user_ids) as number[] };
}

/** The `scheduled_messages` section of POST /register. */
export async function scheduledMessagesState(tx: Tx, user: UserRow): Promise<{ scheduled_messages: Record<string, unknown>[] }> {
  return { scheduled_messages: (await listUndelivered(tx, user.id, DELIVERY_TYPE.SEND_LATER)).map(presentScheduledMessage) };
}

/** GET /scheduled_messages: the undelivered ones, soonest first. */
export async function getOwnScheduledMessages(deps: AppDeps, user: UserRow): Promise<Record<string, unknown>[]> {
  return (await scheduledMessagesState(readTx(deps.store), user)).scheduled_messages;
}

export interface ScheduleInput {
  type: string;
  to: unknown;
  topic?: string;
  content: string;
  scheduledAt: number;
  readBySender?: boolean;
  client: string;
}

/** POST /scheduled_messages: answers the new id. */
export async function doCreateScheduledMessage(deps: AppDeps, realm: RealmRow, sender: UserRow, input: ScheduleInput): Promise<number> {
  const kind = checkMessageParams(input.type);
  const scheduledAt = checkDeliveryTime(deps, input.scheduledAt);
  const target = parseTarget(kind, input.to, input.topic);
  return transaction(deps.store, async (tx) => {
    const checked = await checkScheduledMessage(deps, tx, realm, sender, target, input.content);
    const row = await insertScheduledMessage(tx, {
      ...checked.columns,
      realm_id: realm.id,
      sender_id: sender.id,
      delivery_type: DELIVERY_TYPE.SEND_LATER,
      sending_client: input.client,
      scheduled_timestamp: scheduledAt,
      // Zulip's default for a full client: read by its sender, unless sent to themself only.
      read_by_sender: input.readBySender ?? !checked.toSelf,
    });
    await setScheduledAttachments(tx, row.id, checked.attachmentIds);
    publishOnCommit(tx, deps.events, { type: "scheduled_messages", op: "add", scheduled_messages: [presentScheduledMessage(row)] }, [sender.id]);
    tx.onCommit(() => deps.scheduler?.wake(scheduledAt));
    return row.id;
  });
}

export interface ScheduleEdit {
  type?: string;
  to?: unknown;
  topic?: string;
  content?: string;
  scheduledAt?: number;
  client: string;
}

/**
 * PATCH /scheduled_messages/{id} (Zulip's edit_scheduled_message). Changing the type needs `to`,
 * and to a channel a topic too; a topic alone is ignored for a direct message. Any change of
 * recipient, topic or content checks the message again as sending would. A failed one may only be
 * edited with a new delivery time, and the edit clears its failure.
 */
export async function doEditScheduledMessage(deps: AppDeps, realm: RealmRow, sender: UserRow, id: number, edit: ScheduleEdit): Promise<void> {
  const { type, to, topic, content, scheduledAt } = edit;
  if (type === undefined && to === undefined && topic === undefined && content === undefined && scheduledAt === undefined) {
    throw new ApiError("Nothing to change");
  }
  const kind = type === undefined ? undefined : checkMessageParams(type);
  if (kind !== undefined && to === undefined) throw new ApiError("Recipient required when updating type of scheduled message.");
  if (kind === "channel" && topic === undefined) throw new ApiError("Topic required when updating scheduled message type to channel.");
  if (scheduledAt !== undefined) checkDeliveryTime(deps, scheduledAt);
  await transaction(deps.store, async (tx) => {
    const row = await getOwnScheduledMessage(tx, sender.id, DELIVERY_TYPE.SEND_LATER, id, { lock: true });
    if (!row) throw scheduledMessageNotFound();
    if (row.delivered) throw new ApiError("Scheduled message was already sent");
    if (row.failed && scheduledAt === undefined) throw new ApiError("Scheduled delivery time must be in the future.");
    const stored = storedTarget(row);
    const newKind = kind ?? stored.kind;
    let target = to === undefined ? stored : parseTarget(newKind, to, topic ?? row.topic);
    // A topic alone only concerns a channel message.
    if (to === undefined && topic !== undefined && target.kind === "channel") target = { ...target, topic };
    const recheck = to !== undefined || content !== undefined || (topic !== undefined && stored.kind === "channel");
    const changes: Parameters<typeof updateScheduledMessage>[2] = { sending_client: edit.client, failed: false, failure_message: null };
    if (recheck) {
      const checked = await checkScheduledMessage(deps, tx, realm, sender, target, content ?? row.content);
      Object.assign(changes, checked.columns);
      await setScheduledAttachments(tx, row.id, checked.attachmentIds);
    }
    if (scheduledAt !== undefined) changes.scheduled_timestamp = scheduledAt;
    const updated = await updateScheduledMessage(tx, row.id, changes);
    publishOnCommit(tx, deps.events, { type: "scheduled_messages", op: "update", scheduled_message: presentScheduledMessage(updated) }, [sender.id]);
    tx.onCommit(() => deps.scheduler?.wake(Number(updated.scheduled_timestamp)));
  });
}

/** DELETE /scheduled_messages/{id}: cancels it. */
export async function doDeleteScheduledMessage(deps: AppDeps, sender: UserRow, id: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const row = await getOwnScheduledMessage(tx, sender.id, DELIVERY_TYPE.SEND_LATER, id, { lock: true });
    if (!row) throw scheduledMessageNotFound();
    await deleteScheduledMessage(tx, row.id);
    publishOnCommit(tx, deps.events, { type: "scheduled_messages", op: "remove", scheduled_message_id: row.id }, [sender.id]);
  });
}
