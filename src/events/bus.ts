/**
 * Events leave a mutation only after its transaction commits (architecture-anchors §7.7): actions
 * call `publishOnCommit(tx, bus, event, userIds)`; the bus hands the event to whatever holds the
 * users' event queues (this process's queues, and other processes through Redis when configured).
 */
import type { Tx } from "../store/db.js";

/** An event as sent to clients (`id` is assigned per queue). Shapes follow Zulip's OpenAPI events. */
export interface ChatEvent {
  type: string;
  op?: string;
  [field: string]: unknown;
}

export interface EventBus {
  /** Delivers the event to the event queues of these users. */
  publish(event: ChatEvent, userIds: readonly number[]): void;
  /**
   * Resolves once events for every user with a queue in this process will reach it (cross-process
   * buses subscribe asynchronously); register awaits it before reading the initial state.
   */
  whenSubscribed?(): Promise<void>;
  /**
   * Resolves once every event published so far has been delivered to this process's queues
   * (cross-process buses deliver through a round trip); shutdown awaits it before saving queues.
   */
  flush?(): Promise<void>;
  close?(): Promise<void>;
  /**
   * Why events cannot be promised to reach their queues right now (a cross-process bus without
   * its Redis), or null when they can. While it is non-null the router refuses writes and
   * registers with a 503 (issue 18, item 4).
   */
  unavailable?(): string | null;
  /** Resolves when the bus's backing service answers now (GET /health); rejects otherwise. */
  ping?(): Promise<void>;
  /** What the bus needs to catch saved queues up after a restart (saved with them at shutdown). */
  savedState?(): Promise<unknown>;
  /** Takes over queues just loaded from a previous process, with the state it saved. */
  restore?(state: unknown): Promise<void>;
}

/** Buffers the event on the transaction; it is published only if and after the commit succeeds. */
export function publishOnCommit(tx: Tx, bus: EventBus, event: ChatEvent, userIds: readonly number[]): void {
  if (userIds.length === 0) return;
  tx.onCommit(() => bus.publish(event, userIds));
}

/** A bus that calls in-process listeners; the queue registry subscribes to it. */
export class LocalEventBus implements EventBus {
  private readonly listeners: Array<(event: ChatEvent, userIds: readonly number[]) => void> = [];

  subscribe(listener: (event: ChatEvent, userIds: readonly number[]) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  publish(event: ChatEvent, userIds: readonly number[]): void {
    for (const listener of this.listeners) listener(event, userIds);
  }
}
