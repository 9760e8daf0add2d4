/**
 * Sending what falls due among the pending notifications (store/pending-notifications.ts): claim
 * one user's due rows of one kind under a lease, send them outside any transaction, then delete
 * them. A failed send is tried again with back-off (RETRY_DELAYS_SECONDS) and logged as one JSON
 * line; after the last try the rows are dropped. A send never holds a transaction, so a slow mail
 * server or push relay blocks nothing else; a process that dies mid-send leaves its lease to run
 * out (LEASE_SECONDS), after which the rows are claimed again.
 */
import type { AppDeps } from "../../deps.js";
import { errorFields, logLine } from "../../lib/log.js";
import { randomToken } from "../../lib/secrets.js";
import { readTx, transaction } from "../../store/db.js";
import { claimDueBatch, deleteClaimed, nextPendingTime, retryClaimed, type PendingNotificationRow } from "../../store/pending-notifications.js";
import { RelayRejection } from "../push/push-bouncer.js";
import { sendDigestBatch } from "./digest.js";
import { sendEmailBatch } from "./send-email.js";
import { sendPushBatch, sendRemoveBatch } from "./send-push.js";

/** How long a claim holds rows; a send taking longer could be repeated by another process. */
export const LEASE_SECONDS = 300;
/** The waits before each new try of a failed send (then the notification is dropped). */
export const RETRY_DELAYS_SECONDS = [10, 30, 120, 600, 1800];

/** When the next row falls due (UTC seconds), or null: the worker sleeps until then. */
export function nextNotificationTime(deps: AppDeps): Promise<number | null> {
  return nextPendingTime(readTx(deps.store));
}

function sendBatch(deps: AppDeps, rows: readonly PendingNotificationRow[]): Promise<void> {
  switch (rows[0].kind) {
    case "email":
      return sendEmailBatch(deps, rows);
    case "push":
      return sendPushBatch(deps, rows);
    case "digest":
      return sendDigestBatch(deps, rows);
    default:
      return sendRemoveBatch(deps, rows);
  }
}

/** A refusal (4xx from the relay) will not change by trying again. */
const permanent = (err: unknown) => err instanceof RelayRejection;

/** Sends one due batch, if any; answers whether there was one. */
export async function deliverNextNotification(deps: AppDeps): Promise<boolean> {
  const now = deps.clock.now();
  const due = await nextNotificationTime(deps);
  if (due === null || due > now) return false;
  const token = randomToken(12);
  const rows = await transaction(deps.store, (tx) => claimDueBatch(tx, now, now + LEASE_SECONDS, token));
  if (rows.length === 0) return false;
  const ids = rows.map((r) => r.id);
  try {
    await sendBatch(deps, rows);
  } catch (err) {
    const attempts = Math.max(...rows.map((r) => r.attempts)) ;
    const retry = !permanent(err) && attempts < RETRY_DELAYS_SECONDS.length;
    logLine("warn", `${rows[0].kind} notification failed`, {
      user_id: rows[0].user_id,
      message_ids: rows.map((r) => Number(r.message_id)),
      attempt: attempts + 1,
      retry_at: retry ? deps.clock.now() + RETRY_DELAYS_SECONDS[attempts] : null,
      err: errorFields(err),
    });
    if (retry) {
      await transaction(deps.store, (tx) => retryClaimed(tx, ids, token, deps.clock.now() + RETRY_DELAYS_SECONDS[attempts]));
      return true;
    }
  }
  await transaction(deps.store, (tx) => deleteClaimed(tx, ids, token));
  return true;
}

/** Sends up to `limit` due batches; answers how many were attempted. */
export async function deliverDueNotifications(deps: AppDeps, limit: number): Promise<number> {
  let attempted = 0;
  while (attempted < limit && (await deliverNextNotification(deps))) attempted++;
  return attempted;
}
