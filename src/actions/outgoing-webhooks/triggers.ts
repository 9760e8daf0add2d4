/**
 * When a message triggers an outgoing-webhook bot (Zulip's get_service_bot_events): a channel
 * message that mentions the bot (trigger "mention"), or a direct message the bot takes part in
 * ("direct_message"). Messages sent by bots trigger nothing, so bots cannot loop on each other.
 * Each POST is queued in the message's transaction (queue.ts, durable) and sent after the commit,
 * off the sender's request (deps.outgoingWebhooks runs the queue).
 */
import type { AppDeps } from "../../deps.js";
import { BOT_TYPE } from "../../policy/roles.js";
import type { Tx } from "../../store/db.js";
import type { UserRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import { insertOutgoingWebhookRows } from "./queue.js";

export type OutgoingTrigger = "mention" | "direct_message";

/** One POST to one bot's service, about one message. */
export interface OutgoingWebhookJob {
  realmId: number;
  botId: number;
  messageId: number;
  trigger: OutgoingTrigger;
}

/** The delivery side: the runner of the durable queue (scheduler/outgoing-webhook-queue.ts). */
export interface OutgoingWebhookQueue {
  /** Rows were queued: send them. */
  wake(): void;
}

/** Queues, for after the commit, a job per outgoing-webhook bot the new message triggers. */
export async function queueOutgoingWebhooks(
  deps: AppDeps,
  tx: Tx,
  sender: UserRow,
  message: { id: number; isChannel: boolean },
  mentioned: ReadonlySet<number>,
  recipientIds: readonly number[],
): Promise<void> {
  const queue = deps.outgoingWebhooks;
  if (!queue || sender.is_bot) return;
  const candidates = (message.isChannel ? [...mentioned] : recipientIds).filter((id) => id !== sender.id);
  if (candidates.length === 0) return;
  const bots = (await getUsersByIds(tx, sender.realm_id, candidates)).filter((u) => u.is_active && u.is_bot && u.bot_type === BOT_TYPE.OUTGOING_WEBHOOK);
  const trigger: OutgoingTrigger = message.isChannel ? "mention" : "direct_message";
  if (bots.length === 0) return;
  await insertOutgoingWebhookRows(tx, deps.clock.now(), bots.map((bot) => ({ botId: bot.id, messageId: message.id, trigger })));
  tx.onCommit(() => queue.wake());
}
