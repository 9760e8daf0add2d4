/**
 * Long-polling clients as a Zulip client runs them: register a queue, then GET /events with the last
 * event id seen, again as soon as a poll returns. `waitFor` keeps polling until an event matching a
 * predicate arrives and reports when it did, which is how S6, S7 and S10 time delivery.
 */
import { setMaxListeners } from "node:events";
import { performance } from "node:perf_hooks";
import { basicAuth, type HttpClient, type Reply } from "./http.js";
import type { BenchUser } from "./seed.js";

type Event = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An abort signal shared by thousands of in-flight polls (each adds a listener). */
export function sharedAbort(): AbortController {
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  return abort;
}

/** How many registers run at once when a few thousand clients sign on. */
const REGISTER_CONCURRENCY = 16;

export class Poller {
  private readonly auth: Record<string, string>;
  queueId = "";
  lastEventId = -1;
  /** Polls that came back (events or heartbeat), for throughput figures. */
  polls = 0;
  received = 0;

  constructor(
    private readonly http: HttpClient,
    readonly user: BenchUser,
  ) {
    this.auth = { authorization: basicAuth(user) };
  }

  async register(eventTypes: string[]): Promise<void> {
    const r = await this.http.call("POST", "/api/v1/register", { event_types: eventTypes, apply_markdown: true, client_gravatar: true }, { headers: this.auth });
    if (r.status !== 200) throw new Error(`register as ${this.user.email}: ${r.status} ${JSON.stringify(r.body)}`);
    this.queueId = r.body.queue_id;
    this.lastEventId = r.body.last_event_id;
  }

  private async poll(signal: AbortSignal, onSent?: () => void): Promise<Reply> {
    const params = { queue_id: this.queueId, last_event_id: this.lastEventId };
    const r = await this.http.call("GET", "/api/v1/events", params, { headers: this.auth, signal, onSent });
    if (r.status !== 200) throw new Error(`GET /events as ${this.user.email}: ${r.status} ${JSON.stringify(r.body)}`);
    this.polls++;
    for (const e of r.body.events as Event[]) this.lastEventId = Math.max(this.lastEventId, e.id);
    return r;
  }

  /**
   * Polls until an event satisfying `match` arrives; its arrival time, or null once `signal` aborts.
   * `onSent` hears when the first poll has been handed to the socket.
   */
  async waitFor(match: (e: Event) => boolean, signal: AbortSignal, onSent?: () => void): Promise<number | null> {
    let notify = onSent;
    while (!signal.aborted) {
      try {
        const r = await this.poll(signal, notify);
        notify = undefined;
        const events = r.body.events as Event[];
        this.received += events.filter((e) => e.type !== "heartbeat").length;
        if (events.some(match)) return r.at;
      } catch (err) {
        if (signal.aborted) return null;
        throw err;
      }
    }
    return null;
  }

  /** Keeps polling (counting what arrives) until `signal` aborts. */
  async drain(signal: AbortSignal): Promise<void> {
    await this.waitFor(() => false, signal);
  }
}

/** Registers every poller, a few at a time. */
export async function registerAll(pollers: Poller[], eventTypes: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < pollers.length) await pollers[next++].register(eventTypes);
  };
  await Promise.all(Array.from({ length: REGISTER_CONCURRENCY }, worker));
}

export interface Round {
  /** Milliseconds from just before the send to each delivery, ascending. */
  latencies: number[];
  /** Pollers that had not received it when the round timed out. */
  missing: number;
}

/** Resolves after `count` calls of the returned callback, or after `ms` at the latest. */
export function countdown(count: number, ms: number): { done: Promise<void>; tick: () => void } {
  let left = count;
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const timer = setTimeout(resolve, ms);
  if (left === 0) resolve();
  return {
    done: done.finally(() => clearTimeout(timer)),
    tick: () => {
      if (--left === 0) resolve();
    },
  };
}

/**
 * One delivery round: every poller parks a poll; once all polls are on their sockets and `ready`
 * says the servers have taken them in, `send` runs, and each poller's arrival of the matching
 * event is timed from just before it.
 */
export async function deliveryRound(
  pollers: Poller[],
  match: (e: Event) => boolean,
  send: () => Promise<void>,
  opts: { ready: () => Promise<void>; timeoutMs: number },
): Promise<Round> {
  const abort = sharedAbort();
  const sent = countdown(pollers.length, opts.timeoutMs);
  const arrivals = Promise.all(pollers.map((p) => p.waitFor(match, abort.signal, sent.tick)));
  arrivals.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled meanwhile
  let start = 0;
  let times: Array<number | null>;
  let timer: NodeJS.Timeout | undefined;
  try {
    await sent.done;
    await opts.ready();
    start = performance.now();
    await send();
    timer = setTimeout(() => abort.abort(), opts.timeoutMs);
    times = await arrivals;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  const latencies = times.filter((t): t is number => t !== null).map((t) => t - start);
  return { latencies: latencies.sort((a, b) => a - b), missing: times.length - latencies.length };
}
