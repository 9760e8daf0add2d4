/**
 * Idleness across processes (issue 19 item 5). Zulip's event server holds every queue, so
 * receiver_is_off_zulip sees them all; Parley's queues live in the process that registered them.
 * With several processes (REDIS_URL set), each records in the store until when a user's message
 * queue may still exist there (its last use plus its idle timeout), and the idleness decision at
 * send (enqueue.ts) asks the store about recipients without a queue in its own process.
 *
 * Cheap by construction: a record is written at register, and on a poll only when it would move
 * the recorded time on by at least RECORD_EVERY_SECONDS, so a client polling all day costs one
 * small upsert a minute, not one per poll. The price: another process may see a queue up to that
 * long after it is gone — a queue deleted or collected still counts until its recorded time, and
 * one polled lately may count as gone up to RECORD_EVERY_SECONDS before its real end. Either
 * errs only while presence (shared in the store, 140 s) says the user is active.
 */
import type { AppDeps } from "../../deps.js";
import type { EventQueue } from "../../events/queue.js";
import { QUEUE_IDLE_TIMEOUT_SECONDS } from "../../events/registry.js";
import { errorFields, logLine } from "../../lib/log.js";
import { transaction, type Tx } from "../../store/db.js";
import { recordMessageQueueUntil, usersWithMessageQueueAt } from "../../store/message-queues.js";

export const RECORD_EVERY_SECONDS = 60;
/** Entries of the write throttle kept per process before the expired ones are swept. */
const SWEEP_ABOVE = 10_000;

/** Per process (per deps): the time last recorded for each user. */
const recorded = new WeakMap<AppDeps, Map<number, number>>();

/** Several processes share the store only with the Redis bus; a lone process knows its queues. */
const sharedAcrossProcesses = (deps: AppDeps) => deps.config.redisUrl !== null;

/**
 * Records that the queue was used now (registered or polled), when it takes messages and the last
 * record is older than the throttle. Never fails the request: a store error is logged.
 */
export async function noteQueueUse(deps: AppDeps, queue: EventQueue): Promise<void> {
  if (!sharedAcrossProcesses(deps) || !queue.takes("message")) return;
  const now = deps.clock.now();
  const until = now + (queue.idleTimeoutSeconds ?? QUEUE_IDLE_TIMEOUT_SECONDS);
  let mine = recorded.get(deps);
  if (!mine) recorded.set(deps, (mine = new Map()));
  const last = mine.get(queue.userId);
  if (last !== undefined && until - last < RECORD_EVERY_SECONDS) return;
  mine.set(queue.userId, until);
  if (mine.size > SWEEP_ABOVE) for (const [userId, at] of mine) if (at <= now) mine.delete(userId);
  try {
    await transaction(deps.store, (tx) => recordMessageQueueUntil(tx, queue.userId, until));
  } catch (err) {
    mine.delete(queue.userId);
    logLine("warn", "could not record an event queue's use", { user_id: queue.userId, err: errorFields(err) });
  }
}

/** Which of `userIds` hold a message queue in this process or, with several processes, in another. */
export async function usersWithMessageQueue(deps: AppDeps, tx: Tx, userIds: readonly number[]): Promise<Set<number>> {
  const here = new Set(userIds.filter((id) => deps.queues.hasQueueFor(id, "message")));
  if (!sharedAcrossProcesses(deps)) return here;
  const elsewhere = await usersWithMessageQueueAt(tx, userIds.filter((id) => !here.has(id)), deps.clock.now());
  return new Set([...here, ...elsewhere]);
}
