/**
 * What `buildApp` is built from. No module-level singletons: everything stateful is created here
 * (or by the caller, e.g. tests with a fake clock) and passed down.
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Config } from "./config.js";
import type { EventBus } from "./events/bus.js";
import type { QueueRegistry } from "./events/registry.js";
import type { PresenceService } from "./actions/users/presence.js";
import type { RateCounter } from "./lib/rate-limiter.js";
import type { Store } from "./store/db.js";
import type { OutgoingWebhookQueue } from "./actions/outgoing-webhooks/triggers.js";

export interface Clock {
  /** Current time in UTC seconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };

/** This process's delivery of scheduled messages and reminders (scheduler/scheduler.ts). */
export interface ScheduleWaker {
  /** Something new falls due at `at` (UTC seconds): look again by then. */
  wake(at: number): void;
}

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  events: EventBus;
  /** The event queues held by this process (register / GET /events). */
  queues: QueueRegistry;
  /** Coalesces presence pings into batched writes. */
  presence: PresenceService;
  /** Rate-limit counters (memory or Redis); null when RATE_LIMITING=off. */
  rateLimiter: RateCounter | null;
  /** Set by the server process once its scheduler runs; tests deliver by calling the action themselves. */
  scheduler?: ScheduleWaker;
  /** Set by the server process once its notification worker runs (scheduler/notification-worker.ts). */
  notifier?: ScheduleWaker;
  /** Set by the server process once it deletes deactivated users' messages (scheduler/user-message-deletion.ts). */
  messageDeleter?: ScheduleWaker;
  /**
   * Cluster workers only (WORKERS > 1): which worker owns a queue, and the forwarding of GET and
   * DELETE /events to it (cluster/queue-forwarding.ts). Unset: every queue is this process's.
   */
  queueOwners?: QueueOwners;
  /** Where messages that trigger outgoing-webhook bots go after commit; unset: no bot is called. */
  outgoingWebhooks?: OutgoingWebhookQueue;
}

/** Routes a queue's requests to the worker that holds it (cluster/queue-forwarding.ts). */
export interface QueueOwners {
  /**
   * "local": the queue is this process's (or the id names none); "lost": its worker is not
   * running, so the queue is gone; otherwise the owner's answer, to be relayed as it is.
   */
  forward(
    queueId: string,
    method: "GET" | "DELETE",
    query: Record<string, string>,
    headers: IncomingHttpHeaders,
    onClientGone: (cancel: () => void) => void,
  ): Promise<IncomingMessage | "local" | "lost">;
  /** The loopback port of the running worker that holds this queue, when that is another worker. */
  ownerPort(queueId: string): number | undefined;
}
