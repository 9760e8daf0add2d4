/**
 * The events of an edit (Zulip's update_message / delete_message, OpenAPI events). update_message
 * goes to everyone holding a row for the edited message, with their own flags, and — when the
 * original channel shares its history with subscribers — to the subscribers without a row (flags
 * `read`), old and new channel alike for a channel move. A guest subscribed only to the destination
 * is left out (clients cannot place a message they never had). Users who lost access to moved
 * messages get delete_message instead.
 */
import type { AppDeps } from "../../deps.js";
import { publishOnCommit, type ChatEvent } from "../../events/bus.js";
import { flagNames } from "../../lib/flags.js";
import { isGuest } from "../../policy/roles.js";
import type { Tx } from "../../store/db.js";
import { getSubscriptionUserIds } from "../../store/edits.js";
import { getSubscriberIds } from "../../store/subscriptions.js";
import type { ChannelRow, MessageRow } from "../../store/types.js";
import { getUserMessageRows } from "../../store/user-messages.js";
import { getUsersByIds } from "../../store/users.js";

export interface EditAudience {
  /** The edited message's channel before the edit (null for direct messages). */
  orig: ChannelRow | null;
  /** Set for a channel move. */
  target: ChannelRow | null;
  lostAccess: readonly number[];
}

/** Subscribers without a row who still get the event (flags `read`). */
async function subscribersWithoutRows(tx: Tx, message: MessageRow, a: EditAudience, skip: ReadonlySet<number>): Promise<number[]> {
  const orig = a.orig as ChannelRow;
  if (!orig.history_public_to_subscribers) return [];
  const destination = a.target ?? orig;
  const out = new Set((await getSubscriberIds(tx, destination.recipient_id as number)).filter((id) => !skip.has(id)));
  if (a.target !== null) {
    const oldActive = new Set(await getSubscriptionUserIds(tx, orig.recipient_id as number, "active"));
    for (const u of await getUsersByIds(tx, message.realm_id, [...out])) {
      if (isGuest(u) && !oldActive.has(u.id)) out.delete(u.id);
    }
    for (const id of await getSubscriberIds(tx, orig.recipient_id as number)) if (!skip.has(id)) out.add(id);
  }
  return [...out].sort((x, y) => x - y);
}

export async function publishUpdateMessage(deps: AppDeps, tx: Tx, event: ChatEvent, message: MessageRow, a: EditAudience): Promise<void> {
  const rows = await getUserMessageRows(tx, [message.id]);
  const lost = new Set(a.lostAccess);
  const byFlags = new Map<number, number[]>();
  for (const r of rows) if (!lost.has(r.user_id)) byFlags.set(r.flags, [...(byFlags.get(r.flags) ?? []), r.user_id]);
  for (const [flags, userIds] of byFlags) publishOnCommit(tx, deps.events, { ...event, flags: flagNames(flags) }, userIds);
  if (a.orig === null) return;
  const skip = new Set([...rows.map((r) => r.user_id), ...lost]);
  publishOnCommit(tx, deps.events, { ...event, flags: ["read"] }, await subscribersWithoutRows(tx, message, a, skip));
}

export function publishLostAccess(deps: AppDeps, tx: Tx, orig: ChannelRow, topic: string, messageIds: number[], userIds: readonly number[]): void {
  publishOnCommit(
    tx,
    deps.events,
    { type: "delete_message", message_ids: messageIds, message_type: "stream", stream_id: orig.id, topic },
    userIds,
  );
}

/** Messages a move left without the user's row read as read: the client's unread counts must follow. */
export function publishUnreadWithoutRows(deps: AppDeps, tx: Tx, unreadWithoutRows: ReadonlyMap<number, number[]>): void {
  for (const [userId, messages] of unreadWithoutRows) {
    publishOnCommit(tx, deps.events, { type: "update_message_flags", op: "add", operation: "add", flag: "read", messages, all: false }, [userId]);
  }
}
