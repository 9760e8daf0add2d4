/**
 * One client's event queue (Zulip's ClientDescriptor): sequential ids, pruning by the client's
 * acknowledged `last_event_id`, per-queue filtering and shaping, and at most one parked long-poll.
 *
 * A message to a channel of 1,000 pollers used to cost 1,000 copies of its event and 1,000
 * serialisations, all before the sender's own answer (issue 21, item 4). Now queues whose clients
 * get the same shape share one shaped event (`deliver`'s `shapes`), each shared event is
 * serialised once (`eventsJson`), and parked polls are woken after the current turn of the event
 * loop (`scheduleWake`), so the sender's answer goes out first.
 */
import { JsonText } from "../lib/json-text.js";
import type { ChatEvent } from "./bus.js";
import { withTopicDisplayNames } from "./topic-names.js";

export interface QueueOptions {
  id: string;
  userId: number;
  realmId: number;
  /** null = every type (register's event_types omitted). */
  eventTypes: Set<string> | null;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  /** Client capabilities declared at register (e.g. stream_typing_notifications). */
  capabilities: Record<string, boolean>;
  /** Message-event filter from register's narrow (channel/topic/dm terms); null = all. */
  narrow: Array<{ operator: string; operand: string | number | number[] }> | null;
  now: number;
  /** Seconds without a poll before the queue is collected (register's idle_queue_timeout, FL 481). */
  idleTimeoutSeconds?: number;
}

export type QueuedEvent = ChatEvent & { id: number };

/** An event as a queue holds it: the (possibly shared, never changed) shaped event and its id in this queue. */
export interface QueueEntry {
  readonly id: number;
  readonly event: ChatEvent;
}

interface Waiter {
  resolve(entries: readonly QueueEntry[]): void;
}

/** Shaped events of one delivery by shape key, shared by the queues whose clients get that shape. */
export type SharedShapes = Map<string, ChatEvent>;

/** Queues with a parked poll and new events, woken together once the current turn is done. */
const toWake = new Set<EventQueue>();
let wakeScheduled = false;

function scheduleWake(queue: EventQueue): void {
  toWake.add(queue);
  if (wakeScheduled) return;
  wakeScheduled = true;
  // setImmediate, not a microtask: the publisher's own continuation (the sender's HTTP answer)
  // runs in microtasks and must not wait for every poll's answer to be written.
  setImmediate(() => {
    wakeScheduled = false;
    const queues = [...toWake];
    toWake.clear();
    for (const q of queues) q.wakeNow();
  });
}

/** The JSON text of each shared shaped event, made once whichever queue answers first. */
const jsonOfEvent = new WeakMap<ChatEvent, string>();

function entryJson(entry: QueueEntry): string {
  const { event, id } = entry;
  if (Object.hasOwn(event, "id")) return JSON.stringify({ ...event, id });
  let text = jsonOfEvent.get(event);
  if (text === undefined) {
    text = JSON.stringify(event);
    jsonOfEvent.set(event, text);
  }
  // `{...event, id}` as text: the event's members, then the queue's id.
  return text === "{}" ? `{"id":${id}}` : `${text.slice(0, -1)},"id":${id}}`;
}

/** The `events` array of a poll's answer as JSON text (the same JSON as the QueuedEvent objects). */
export function eventsJson(entries: readonly QueueEntry[]): JsonText {
  return new JsonText(`[${entries.map(entryJson).join(",")}]`);
}

const asQueuedEvent = (entry: QueueEntry): QueuedEvent => ({ ...entry.event, id: entry.id }) as QueuedEvent;

/**
 * Fields the publishers attach for queues to use; never sent to clients. `only_with` and
 * `only_without` name a client capability the receiving queue must (or must not) have declared:
 * Zulip sends archived channels and deactivated groups, and their changes, only to clients that
 * declared archived_channels / include_deactivated_groups, and the older shapes (stream delete
 * and create, user_group remove and add) to the others (zulip-facts section f; FL 294, 378); the
 * "Unknown user" realm_user add only to clients without user_list_incomplete (FL 232).
 */
const INTERNAL_FIELDS = ["raw_content", "sender_queue_id", "local_message_id", "only_with", "only_without"] as const;

export class EventQueue {
  readonly id: string;
  readonly userId: number;
  readonly realmId: number;
  private readonly opts: QueueOptions;
  private entries: QueueEntry[] = [];
  private nextId = 0;
  private waiter: Waiter | null = null;
  /** Seconds timestamp of the last poll or registration (idle GC). */
  lastAccess: number;
  /** Dropped from its registry while a poll may still hold it (registry.discardAll). */
  discarded = false;

  constructor(opts: QueueOptions) {
    this.opts = opts;
    this.id = opts.id;
    this.userId = opts.userId;
    this.realmId = opts.realmId;
    this.lastAccess = opts.now;
  }

  /** Id of the newest event queued so far (-1 before any), as register reports last_event_id. */
  get lastEventId(): number {
    return this.nextId - 1;
  }

  get hasWaiter(): boolean {
    return this.waiter !== null;
  }

  /**
   * Whether this queue takes events of this type at all (its event_types), as Zulip's
   * accepts_messages asks of "message": a narrow or a capability only filters which.
   */
  takes(type: string): boolean {
    return !this.opts.eventTypes || this.opts.eventTypes.has(type);
  }

  /** Whether this queue wants the event, per event_types and client capabilities. */
  wants(event: ChatEvent): boolean {
    if (event.type === "heartbeat" || event.type === "restart") return true;
    if (this.opts.eventTypes && !this.opts.eventTypes.has(event.type)) return false;
    if (typeof event.only_with === "string" && !this.opts.capabilities[event.only_with]) return false;
    if (typeof event.only_without === "string" && this.opts.capabilities[event.only_without]) return false;
    if (event.type === "typing" && event.message_type === "stream" && !this.opts.capabilities.stream_typing_notifications) {
      return false;
    }
    if (event.type === "message" && this.opts.narrow && !this.matchesNarrow(event)) return false;
    return true;
  }

  private matchesNarrow(event: ChatEvent): boolean {
    const m = event.message as Record<string, unknown>;
    return (this.opts.narrow ?? []).every((term) => {
      switch (term.operator) {
        case "channel":
        case "stream":
          return m.type === "stream" && (m.display_recipient === term.operand || m.stream_id === term.operand);
        case "topic":
          return String(m.subject).toLowerCase() === String(term.operand).toLowerCase();
        case "is":
          return term.operand === "dm" || term.operand === "private" ? m.type === "private" : true;
        case "channels":
          // Nothing is sent to an archived channel, so channels:archived (FL 489) matches no new message.
          return term.operand !== "archived";
        default:
          return true;
      }
    });
  }

  /** Shapes the shared event for this queue's client. */
  private shape(event: ChatEvent): ChatEvent {
    const out: ChatEvent = { ...event };
    for (const f of INTERNAL_FIELDS) delete out[f];
    if (event.type === "presence") {
      // Presence events carry both shapes; clients pick one with simplified_presence_events.
      if (this.opts.capabilities.simplified_presence_events) {
        return { type: "presence", presences: event.presences };
      }
      delete out.presences;
    }
    if (event.type === "message") {
      const message = { ...(event.message as Record<string, unknown>) };
      if (!this.opts.applyMarkdown && typeof event.raw_content === "string") {
        message.content = event.raw_content;
        message.content_type = "text/x-markdown";
      }
      out.message = message;
      if (event.sender_queue_id === this.id && event.local_message_id !== undefined) {
        out.local_message_id = event.local_message_id;
      }
    }
    return this.opts.capabilities.empty_topic_name ? out : withTopicDisplayNames(out);
  }

  /** Seconds without a poll after which the registry may collect this queue. */
  get idleTimeoutSeconds(): number | undefined {
    return this.opts.idleTimeoutSeconds;
  }

  /**
   * What `shape` depends on for this event, or null when the result is this queue's own (the
   * sender's queue gets its local_message_id back). Queues with equal keys get equal shapes.
   */
  private shapeKey(event: ChatEvent): string | null {
    if (event.type === "message" && event.sender_queue_id === this.id && event.local_message_id !== undefined) return null;
    const caps = this.opts.capabilities;
    const topics = caps.empty_topic_name ? "e" : "d";
    if (event.type === "message") return `m${topics}${this.opts.applyMarkdown ? 1 : 0}`;
    if (event.type === "presence") return `p${topics}${caps.simplified_presence_events ? 1 : 0}`;
    return topics;
  }

  /**
   * Queues the event if this queue wants it. `shapes` (one map per delivery) lets queues whose
   * clients get the same shape share one shaped event instead of one copy each.
   */
  push(event: ChatEvent, shapes?: SharedShapes): void {
    if (!this.wants(event)) return;
    const key = shapes ? this.shapeKey(event) : null;
    let shaped = key === null ? undefined : shapes?.get(key);
    if (!shaped) {
      shaped = this.shape(event);
      if (key !== null) shapes?.set(key, shaped);
    }
    for (const one of this.perClient(shaped)) this.entries.push({ id: this.nextId++, event: one });
    if (this.waiter) scheduleWake(this);
  }

  /** Answers the parked poll, if it is still there, with the events waiting (scheduleWake). */
  wakeNow(): void {
    if (!this.waiter || this.entries.length === 0) return;
    const w = this.waiter;
    this.waiter = null;
    w.resolve(this.entries.slice());
  }

  /**
   * One event, or the several a client without bulk_message_deletion (FL 13) expects: Zulip sends
   * it one delete_message event per message, with a singleton message_id.
   */
  private perClient(event: ChatEvent): ChatEvent[] {
    if (event.type !== "delete_message" || this.opts.capabilities.bulk_message_deletion || !Array.isArray(event.message_ids)) return [event];
    const { message_ids: ids, ...rest } = event;
    return (ids as number[]).map((messageId) => ({ ...rest, message_id: messageId }));
  }

  /** Drops events the client acknowledged (ids ≤ lastEventId). */
  prune(lastEventId: number): void {
    if (this.entries.length && this.entries[0].id <= lastEventId) {
      this.entries = this.entries.filter((e) => e.id > lastEventId);
    }
  }

  /** Events waiting to be collected, as entries (eventsJson serialises them). */
  pendingEntries(): QueueEntry[] {
    return this.entries.slice();
  }

  /** Events waiting to be collected, as the objects a client receives. */
  pending(): QueuedEvent[] {
    return this.entries.map(asQueuedEvent);
  }

  /** Parks a long-poll; the returned promise resolves with the waiting entries, or [] when cancelled. */
  wait(): { promise: Promise<readonly QueueEntry[]>; cancel(): void } {
    if (this.waiter) this.waiter.resolve([]);
    let resolveFn!: (entries: readonly QueueEntry[]) => void;
    const promise = new Promise<readonly QueueEntry[]>((resolve) => (resolveFn = resolve));
    const waiter: Waiter = { resolve: resolveFn };
    this.waiter = waiter;
    return {
      promise,
      cancel: () => {
        if (this.waiter === waiter) {
          this.waiter = null;
          waiter.resolve([]);
        }
      },
    };
  }

  /** Answers a parked long-poll with no events (shutdown, or the client went away). */
  cancelWait(): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve([]);
    }
  }

  /** Marks the queue dropped and answers a parked poll, which then reports BAD_EVENT_QUEUE_ID. */
  discard(): void {
    this.discarded = true;
    this.cancelWait();
  }

  /** A serialisable snapshot for saving queues across a graceful restart. */
  toJSON(): Record<string, unknown> {
    return { opts: { ...this.opts, eventTypes: this.opts.eventTypes ? [...this.opts.eventTypes] : null }, events: this.pending(), nextId: this.nextId, lastAccess: this.lastAccess };
  }

  static fromJSON(data: Record<string, unknown>): EventQueue {
    const saved = data.opts as QueueOptions & { eventTypes: string[] | null };
    const q = new EventQueue({ ...saved, eventTypes: saved.eventTypes ? new Set(saved.eventTypes) : null });
    q.entries = (data.events as QueuedEvent[]).map(({ id, ...event }) => ({ id, event: event as ChatEvent }));
    q.nextId = data.nextId as number;
    q.lastAccess = data.lastAccess as number;
    return q;
  }
}
