/**
 * The durable queue of outgoing-webhook POSTs: one row per bot and triggering message in the
 * store's pending_notifications (kind "outgoing_webhook"), written in the message's own
 * transaction, so a restart loses none (Zulip keeps them in its outgoing_webhooks RabbitMQ queue).
 * Delivery reuses the notifications' lease (store/pending-notifications.ts: claim under a lease,
 * PostgreSQL's FOR UPDATE SKIP LOCKED): several processes share the rows and each row is sent by
 * one of them; a process that dies mid-send leaves its lease to run out, and the row is sent again.
 */
import type { AppDeps } from "../../deps.js";
import { randomToken } from "../../lib/secrets.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { claimDueBatch, deleteClaimed, insertPendingNotifications, nextPendingTime, retryClaimed } from "../../store/pending-notifications.js";
import { getRealmIdOfUser } from "../../store/users.js";
import { deliverOutgoingWebhook } from "./deliver.js";
import type { OutgoingTrigger } from "./triggers.js";

export const OUTGOING_WEBHOOK_KIND = "outgoing_webhook" as const;
const KINDS = [OUTGOING_WEBHOOK_KIND];
/** Rows of one bot claimed at once; they are sent one after the other, in message order. */
const BATCH_ROWS = 10;

/** Queues, in the sending transaction, one POST per triggered bot. */
export async function insertOutgoingWebhookRows(tx: Tx, now: number, rows: ReadonlyArray<{ botId: number; messageId: number; trigger: OutgoingTrigger }>): Promise<void> {
  await insertPendingNotifications(
    tx,
    rows.map((r) => ({ user_id: r.botId, message_id: r.messageId, kind: OUTGOING_WEBHOOK_KIND, trigger: r.trigger, mentioned_group_id: null, due_at: now })),
  );
}

/** When the next queued POST is due or its lease runs out (UTC seconds), or null. */
export function nextOutgoingWebhookTime(deps: AppDeps): Promise<number | null> {
  return nextPendingTime(readTx(deps.store), KINDS);
}

/**
 * Claims one bot's due rows and sends them; answers whether there were any. A row is deleted once
 * sent (or failed for good); a retry (time-out, refused connection) goes back, due at once, with
 * its attempt counted, as Zulip's retry_event requeues.
 */
export async function deliverNextOutgoingWebhooks(deps: AppDeps): Promise<boolean> {
  const now = deps.clock.now();
  const token = randomToken(12);
  // The lease covers the batch's slowest case: every POST taking the whole time-out.
  const lease = now + BATCH_ROWS * (deps.config.outgoingWebhookTimeoutSeconds + 5) + 60;
  const rows = await transaction(deps.store, (tx) => claimDueBatch(tx, now, lease, token, { kinds: KINDS, limit: BATCH_ROWS }));
  if (rows.length === 0) return false;
  const realmId = await getRealmIdOfUser(readTx(deps.store), rows[0].user_id);
  for (const row of rows) {
    const job = { realmId: realmId ?? 0, botId: row.user_id, messageId: Number(row.message_id), trigger: row.trigger as OutgoingTrigger };
    let outcome: "done" | "retry" = "done";
    try {
      if (realmId !== null) outcome = await deliverOutgoingWebhook(deps, job, row.attempts);
    } finally {
      if (outcome === "retry") await transaction(deps.store, (tx) => retryClaimed(tx, [row.id], token, deps.clock.now()));
      else await transaction(deps.store, (tx) => deleteClaimed(tx, [row.id], token));
    }
  }
  return true;
}
