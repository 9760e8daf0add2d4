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
  /** Identifies this process in queue ids, so a misrouted poll fails cleanly (BAD_EVENT_QUEUE_ID). */
  readonly processTag = randomBytes(4).toString("hex");
  /** Called when the first queue of a user appears / the last goes (cross-process subscriptions). */
  onUsersChanged: (() => void) | null = null;

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
    if (isNewUser) this.onUsersChanged?.();
  }

  get(id: string): EventQueue | undefined {
    return this.queues.get(id);
  }

  delete(id: string): boolean {
    const queue = this.queues.get(id);
    if (!queue) return false;
    this.queues.delete(id);
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
    for (const queue of this.byUser.get(userId) ?? []) if (queue.wants({ type })) return true;
    return false;
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
    for (const queue of queues) queue.discard();
    if (queues.length > 0) this.onUsersChanged?.();
    return queues.length;
  }

  /** Ends every parked long-poll (graceful shutdown); clients poll again and find their queue. */
  releaseWaiters(): void {
    for (const queue of this.queues.values()) queue.cancelWait();
  }
}
