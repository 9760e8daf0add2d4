/**
 * The event queues held by this process: creation, lookup by id and by user, delivery of published
 * events, idle garbage collection (10 minutes without a poll by default, zulip-facts section f;
 * longer when register's idle_queue_timeout asked for it), and saving /
 * restoring across a graceful restart.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync, renameSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import type { ChatEvent } from "./bus.js";
import { EventQueue, type QueueOptions, type SharedShapes } from "./queue.js";

export const QUEUE_IDLE_TIMEOUT_SECONDS = 600;
/** register's idle_queue_timeout (FL 481): "mobile" asks for 12 hours; no request exceeds 7 days (Zulip's limits). */
export const MOBILE_QUEUE_IDLE_TIMEOUT_SECONDS = 12 * 60 * 60;
export const MAX_QUEUE_IDLE_TIMEOUT_SECONDS = 7 * 24 * 60 * 60;

export class QueueRegistry {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  private counter = 0;
  /**
   * Identifies this process in queue ids, so a misrouted poll fails cleanly (BAD_EVENT_QUEUE_ID).
   * A cluster worker's tag starts with its index (`w1-…`), which names the worker that owns the
   * queue whichever worker a poll reaches (cluster/queue-owner.ts).
   */
  readonly processTag: string;
  /** Called when the first queue of a user appears / the last goes (cross-process subscriptions). */
  onUsersChanged: (() => void) | null = null;
  /**
   * Called when a user's first queue that takes message events appears here (true) or the last
   * goes (false): cluster workers tell each other, so `hasQueueFor` answers for the whole server.
   */
  onMessageQueuePresence: ((userId: number, present: boolean) => void) | null = null;
  /** Queues taking message events per user, held here. */
  private readonly messageQueues = new Map<number, number>();
  /** Whether another worker of this server holds such a queue for the user (cluster/ipc-bus.ts). */
  remoteHasMessageQueue: ((userId: number) => boolean) | null = null;

  constructor(workerIndex: number | null = null) {
    const random = randomBytes(4).toString("hex");
    this.processTag = workerIndex === null ? random : `${workerTagPrefix(workerIndex)}${random}`;
  }

  create(opts: Omit<QueueOptions, "id">): EventQueue {
    const id = `${this.processTag}:${++this.counter}:${randomBytes(6).toString("hex")}`;
    const queue = new EventQueue({ ...opts, id });
    this.add(queue);
    return queue;
  }

  private add(queue: EventQueue): void {
    this.queues.set(queue.id, queue);
    const set = this.byUser.get(queue.userId) ?? new Set();
    const isNewUser = set.size === 0;
    set.add(queue);
    this.byUser.set(queue.userId, set);
    if (queue.takes("message")) this.countMessageQueue(queue.userId, +1);
    if (isNewUser) this.onUsersChanged?.();
  }

  private countMessageQueue(userId: number, delta: 1 | -1): void {
    const count = (this.messageQueues.get(userId) ?? 0) + delta;
    if (count > 0) this.messageQueues.set(userId, count);
    else this.messageQueues.delete(userId);
    if (count === (delta > 0 ? 1 : 0)) this.onMessageQueuePresence?.(userId, delta > 0);
  }

  /** Users holding a queue here that takes message events (a worker announces them on start). */
  messageQueueUserIds(): number[] {
    return [...this.messageQueues.keys()];
  }

  get(id: string): EventQueue | undefined {
    return this.queues.get(id);
  }

  delete(id: string): boolean {
    const queue = this.queues.get(id);
    if (!queue) return false;
    this.queues.delete(id);
    if (queue.takes("message")) this.countMessageQueue(queue.userId, -1);
    const set = this.byUser.get(queue.userId);
    set?.delete(queue);
    if (set && set.size === 0) {
      this.byUser.delete(queue.userId);
      this.onUsersChanged?.();
    }
    return true;
  }

  /**
   * Whether the user has a queue here that takes events of this type: Zulip's receiver_is_off_zulip
   * asks it of "message" (policy/notifications.ts isIdle).
   */
  hasQueueFor(userId: number, type: string): boolean {
    for (const queue of this.byUser.get(userId) ?? []) if (queue.takes(type)) return true;
    return type === "message" && !!this.remoteHasMessageQueue?.(userId);
  }

  /** Users with at least one queue here. */
  userIds(): number[] {
    return [...this.byUser.keys()];
  }

  get size(): number {
    return this.queues.size;
  }

  deliver(event: ChatEvent, userIds: readonly number[]): void {
    // Queues whose clients get the same shape share one shaped event (queue.ts).
    const shapes: SharedShapes = new Map();
    for (const userId of userIds) {
      const set = this.byUser.get(userId);
      if (!set) continue;
      for (const queue of set) queue.push(event, shapes);
    }
  }

  /** Removes queues idle for longer than their timeout (a parked poll keeps a queue alive). */
  collectIdle(now: number): string[] {
    const removed: string[] = [];
    for (const queue of [...this.queues.values()]) {
      if (!queue.hasWaiter && now - queue.lastAccess > (queue.idleTimeoutSeconds ?? QUEUE_IDLE_TIMEOUT_SECONDS)) {
        this.delete(queue.id);
        removed.push(queue.id);
      }
    }
    return removed;
  }

  /**
   * Writes every queue to `path` (atomically) for the next process to pick up, with the bus's
   * state (where its deliveries stand: redis-streams.ts).
   */
  save(path: string, busState: unknown = null): void {
    mkdirSync(dirname(path), { recursive: true });
    const data = JSON.stringify({ processTag: this.processTag, busState, queues: [...this.queues.values()].map((q) => q.toJSON()) });
    writeFileSync(`${path}.tmp`, data, { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  }

  /**
   * Restores queues saved by `save`; returns how many. A missing or corrupt file restores none.
   * The file is consumed: were it read again after a later crash, its queues would come back with
   * their event ids rewound, and a client whose last_event_id is ahead would discard new events as
   * already seen. Without the file, such clients get BAD_EVENT_QUEUE_ID and register again.
   */
  load(path: string, onBusState?: (state: unknown) => void): number {
    if (!existsSync(path)) return 0;
    try {
      const data = JSON.parse(readFileSync(path, "utf8")) as { queues: Record<string, unknown>[]; busState?: unknown };
      onBusState?.(data.busState ?? null);
      for (const q of data.queues) this.add(EventQueue.fromJSON(q));
      return data.queues.length;
    } catch {
      return 0;
    } finally {
      rmSync(path, { force: true });
    }
  }

  /** Long-polls parked right now (GET /metrics). */
  parkedCount(): number {
    let parked = 0;
    for (const queue of this.queues.values()) if (queue.hasWaiter) parked++;
    return parked;
  }

  /**
   * Drops every queue because its events can no longer be promised (the cross-process bus lost
   * Redis): parked and later polls get BAD_EVENT_QUEUE_ID, and clients register again. Returns
   * how many were dropped.
   */
  discardAll(): number {
    const queues = [...this.queues.values()];
    this.queues.clear();
    this.byUser.clear();
    for (const userId of [...this.messageQueues.keys()]) {
      this.messageQueues.delete(userId);
      this.onMessageQueuePresence?.(userId, false);
    }
    for (const queue of queues) queue.discard();
    if (queues.length > 0) this.onUsersChanged?.();
    return queues.length;
  }

  /** Ends every parked long-poll (graceful shutdown); clients poll again and find their queue. */
  releaseWaiters(): void {
    for (const queue of this.queues.values()) queue.cancelWait();
  }
}

/** The start of the queue ids of cluster worker `index`. */
export function workerTagPrefix(index: number): string {
  return `w${index}-`;
}

/** The cluster worker a queue id names, or null for ids of a single process (or garbage). */
export function queueOwnerIndex(queueId: string): number | null {
  const match = /^w(\d{1,2})-/.exec(queueId);
  return match ? Number(match[1]) : null;
}
