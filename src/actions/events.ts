/**
 * Registering an event queue and polling it (Zulip's register-queue, get-events, delete-queue;
 * zulip-facts section f). The queue is created — and, across processes, subscribed — before the
 * initial state is read, so no event can fall between the two.
 */
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import type { ChangeStamp } from "../store/change-stamp.js";
import { fetchInitialState } from "../events/state/index.js";
import type { EventQueue, QueueEntry } from "../events/queue.js";
import { QUEUE_IDLE_TIMEOUT_SECONDS } from "../events/registry.js";
import { readTx } from "../store/db.js";
import { noteQueueUse } from "./notifications/queue-activity.js";
import type { RealmRow, UserRow } from "../store/types.js";
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from "../version.js";

export interface RegisterInput {
  /**
   * The request's authentication stamp (UserContext.stamp): the state's cached realm lists are
   * checked against it. Register's only write (noteQueueUse) touches none of what the state reads.
   */
  stamp?: ChangeStamp | null;
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  narrow: Array<{ operator: string; operand: string | number | number[] }>;
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: boolean;
  capabilities: Record<string, boolean>;
  slimPresence: boolean;
  /** register's idle_queue_timeout in seconds (FL 481); the default 10 minutes when absent. */
  idleQueueTimeoutSeconds?: number;
  /** register's presence_history_limit_days (FL 288). */
  presenceHistoryDays?: number;
}

export const badEventQueueId = (queueId: string) =>
  new ApiError(`Bad event queue ID: ${queueId}`, "BAD_EVENT_QUEUE_ID", 400, { queue_id: queueId });

export async function doRegister(deps: AppDeps, realm: RealmRow, user: UserRow, input: RegisterInput): Promise<Record<string, unknown>> {
  const queue = deps.queues.create({
    userId: user.id,
    realmId: realm.id,
    eventTypes: input.eventTypes ? new Set(input.eventTypes) : null,
    applyMarkdown: input.applyMarkdown,
    clientGravatar: input.clientGravatar,
    allPublicStreams: input.allPublicStreams,
    capabilities: input.capabilities,
    narrow: input.narrow.length ? input.narrow : null,
    now: deps.clock.now(),
    idleTimeoutSeconds: input.idleQueueTimeoutSeconds,
  });
  // Events that arrive while the state is read stay queued after this id, so the client's first
  // poll returns them even when the state already reflects some of them (applying is idempotent).
  const lastEventIdBeforeState = queue.lastEventId;
  await deps.events.whenSubscribed?.();
  await noteQueueUse(deps, queue);
  const state = await fetchInitialState(
    {
      tx: readTx(deps.store, input.stamp),
      deps,
      realm,
      user,
      clientGravatar: input.clientGravatar,
      includeSubscribers: input.includeSubscribers,
      capabilities: input.capabilities,
      slimPresence: input.slimPresence,
      presenceHistoryDays: input.presenceHistoryDays,
    },
    input.fetchEventTypes ?? input.eventTypes,
  );
  return {
    queue_id: queue.id,
    last_event_id: lastEventIdBeforeState,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_version: ZULIP_VERSION,
    zulip_merge_base: ZULIP_MERGE_BASE,
    // How long the queue lives without a poll (FL 481), so a client knows when to expect it gone.
    idle_queue_timeout_secs: queue.idleTimeoutSeconds ?? QUEUE_IDLE_TIMEOUT_SECONDS,
    ...state,
  };
}

export function accessQueue(deps: AppDeps, user: UserRow, queueId: string): EventQueue {
  const queue = deps.queues.get(queueId);
  if (!queue || queue.userId !== user.id || queue.discarded) throw badEventQueueId(queueId);
  return queue;
}

/**
 * Answers at once when events wait (or with none under dont_block); otherwise parks until an event
 * arrives, the heartbeat period passes (a heartbeat event is queued), or the client goes away.
 */
export async function doGetEvents(
  deps: AppDeps,
  queue: EventQueue,
  lastEventId: number | undefined,
  dontBlock: boolean,
  onClientGone: (cancel: () => void) => void,
): Promise<readonly QueueEntry[]> {
  queue.lastAccess = deps.clock.now();
  await noteQueueUse(deps, queue);
  if (lastEventId !== undefined) queue.prune(lastEventId);
  const pending = queue.pendingEntries();
  if (pending.length > 0 || dontBlock) return pending;
  const { promise, cancel } = queue.wait();
  const timer = setTimeout(() => queue.push({ type: "heartbeat" }), deps.config.eventHeartbeatSeconds * 1000);
  onClientGone(cancel);
  let events: readonly QueueEntry[];
  try {
    events = await promise;
  } finally {
    clearTimeout(timer);
    queue.lastAccess = deps.clock.now();
  }
  // Dropped while parked (the event bus lost Redis): the client must register again.
  if (queue.discarded) throw badEventQueueId(queue.id);
  return events;
}
