/**
 * Deleting the messages a deactivated user sent (FL 459: DELETE /users/{id} `actions`
 * delete_public_channel_messages, delete_private_channel_messages, delete_direct_messages; Zulip's
 * delete_deactivated_user_messages, zerver/actions/message_delete.py). A user may have sent any
 * number of messages, so the deactivation only queues the work: one row per user in the durable
 * pending_notifications queue (kind "delete_user_messages", written in the deactivation's own
 * transaction), which the server's UserMessageDeletionWorker (scheduler/user-message-deletion.ts)
 * works off in batches of `limit` messages, each batch its own transaction and its own
 * delete_message events, the event loop getting a turn between batches (Zulip deletes in chunks of
 * retention's STREAM_MESSAGE_BATCH_SIZE too). Rows are claimed under the notifications' lease, so
 * one process works on a user at a time and a process that dies leaves the rest to another.
 */
import type { AppDeps } from "../../deps.js";
import { randomToken } from "../../lib/secrets.js";
import { getChannelsByRecipientIds } from "../../store/channels.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { claimDueBatch, deleteClaimed, insertPendingNotifications, nextPendingTime, releaseClaimed, retryClaimed } from "../../store/pending-notifications.js";
import { getSenderMessagesBatch, type SenderMessageScope } from "../../store/sender-messages.js";
import type { MessageRow, UserRow } from "../../store/types.js";
import { getRealmIdOfUser, getUserById } from "../../store/users.js";
import { doDeleteMessages } from "./delete-message.js";

export const DELETE_USER_MESSAGES_KIND = "delete_user_messages" as const;
const KINDS = [DELETE_USER_MESSAGES_KIND];
/** Long enough for one batch; a batch is one transaction, so a lease that ran out only repeats it. */
const LEASE_SECONDS = 120;

/** The scope as the row's message_id keeps it: a bit per kind of conversation. */
const BITS = { publicChannels: 1, privateChannels: 2, direct: 4 } as const;

export function encodeScope(scope: SenderMessageScope): number {
  return (scope.publicChannels ? BITS.publicChannels : 0) | (scope.privateChannels ? BITS.privateChannels : 0) | (scope.direct ? BITS.direct : 0);
}

function decodeScope(bits: number): SenderMessageScope {
  return { publicChannels: (bits & BITS.publicChannels) !== 0, privateChannels: (bits & BITS.privateChannels) !== 0, direct: (bits & BITS.direct) !== 0 };
}

/** Queues, in the deactivation's transaction, the deletion of `user`'s messages in `scope`. */
export async function queueUserMessageDeletion(deps: AppDeps, tx: Tx, actor: UserRow, user: UserRow, scope: SenderMessageScope): Promise<void> {
  const bits = encodeScope(scope);
  if (bits === 0) return;
  const now = deps.clock.now();
  await insertPendingNotifications(tx, [
    { user_id: user.id, message_id: bits, kind: DELETE_USER_MESSAGES_KIND, trigger: String(actor.id), mentioned_group_id: null, due_at: now },
  ]);
  tx.onCommit(() => deps.messageDeleter?.wake(now));
}

/** When queued deletion work is due or a lease runs out (UTC seconds), or null. */
export function nextUserMessageDeletionTime(deps: AppDeps): Promise<number | null> {
  return nextPendingTime(readTx(deps.store), KINDS);
}

/** Groups messages by conversation (channel and topic, or direct-message recipient): one event each. */
function byConversation(messages: readonly MessageRow[]): MessageRow[][] {
  const groups = new Map<string, MessageRow[]>();
  for (const m of messages) {
    const key = `${m.recipient_id}\u0000${m.type === 2 ? m.subject : ""}`;
    const group = groups.get(key);
    if (group) group.push(m);
    else groups.set(key, [m]);
  }
  return [...groups.values()];
}

/**
 * Deletes one batch of at most `limit` messages of one queued user. Answers `limit` when it took
 * a row (so the worker comes back at once for the rest, after a turn of the event loop) and 0
 * when nothing was due. The row goes once a batch finds fewer messages than `limit`.
 */
export async function deleteDueUserMessages(deps: AppDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  const token = randomToken(12);
  const [row] = await transaction(deps.store, (tx) => claimDueBatch(tx, now, now + LEASE_SECONDS, token, { kinds: KINDS, limit: 1 }));
  if (!row) return 0;
  // "failed": the batch's transaction threw; the row is tried again in a minute, its attempt counted.
  let outcome: "done" | "more" | "failed" = "failed";
  try {
    outcome = await transaction(deps.store, async (tx) => {
      const realmId = await getRealmIdOfUser(tx, row.user_id);
      const sender = realmId === null ? undefined : await getUserById(tx, realmId, row.user_id);
      if (realmId === null || !sender) return "done";
      const actor = (await getUserById(tx, realmId, Number(row.trigger))) ?? sender;
      const batch = await getSenderMessagesBatch(tx, realmId, sender.id, decodeScope(Number(row.message_id)), limit);
      const channels = await getChannelsByRecipientIds(tx, batch.filter((m) => m.type === 2).map((m) => m.recipient_id));
      for (const messages of byConversation(batch)) {
        const channel = channels.find((c) => c.recipient_id === messages[0].recipient_id) ?? null;
        await doDeleteMessages(deps, tx, actor, messages, channel);
      }
      return batch.length < limit ? "done" : "more";
    });
  } finally {
    await transaction(deps.store, async (tx) => {
      if (outcome === "done") await deleteClaimed(tx, [row.id], token);
      else if (outcome === "more") await releaseClaimed(tx, [row.id], token);
      else await retryClaimed(tx, [row.id], token, deps.clock.now() + 60);
    });
  }
  return limit;
}
