/**
 * One simulated user of the soak (bench/soak.ts): a long-poll loop on its own event queue, and an
 * action loop that, after a random think time, sends a channel or direct message, fetches a message
 * it has seen by id, lists a channel's newest messages, toggles a reaction, or types. Every reply
 * is timed; anything but a success counts as an error. `SoakStats` tracks, for every acknowledged
 * message, the recipients whose queue has not delivered it yet.
 */
import type { ApiClient, ApiReply } from "../test/helpers/server-process.js";

export type Action = "send" | "fetch" | "list" | "react" | "typing" | "poll";

const WEIGHTS: Array<[Exclude<Action, "poll">, number]> = [["send", 30], ["fetch", 20], ["list", 15], ["react", 15], ["typing", 20]];
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
const DIRECT_SHARE = 0.1;
const RECENT = 50;
const TOPICS = 5;
const MAX_ERROR_SAMPLES = 10;

export interface SoakChannel {
  id: number;
  name: string;
  subscribers: number[];
}

export class SoakStats {
  readonly durations = new Map<Action, number[]>();
  errors = 0;
  readonly errorSamples: string[] = [];
  /** Acknowledged message id → recipients still waiting for its event. */
  readonly pending = new Map<number, Set<number>>();
  /** Acknowledged message id → sender. */
  readonly sent = new Map<number, number>();
  /** Events that overtook their send's reply: message id → users who already got it. */
  private readonly early = new Map<number, Set<number>>();

  record(action: Action, ms: number): void {
    const list = this.durations.get(action) ?? [];
    list.push(ms);
    this.durations.set(action, list);
  }

  error(action: Action, detail: string): void {
    this.errors++;
    if (this.errorSamples.length < MAX_ERROR_SAMPLES) this.errorSamples.push(`${action}: ${detail}`);
  }

  expect(id: number, senderId: number, recipients: readonly number[]): void {
    this.sent.set(id, senderId);
    const seen = this.early.get(id);
    this.early.delete(id);
    const waiting = new Set(recipients.filter((r) => !seen?.has(r)));
    if (waiting.size > 0) this.pending.set(id, waiting);
  }

  delivered(id: number, userId: number): void {
    const waiting = this.pending.get(id);
    if (waiting) {
      waiting.delete(userId);
      if (waiting.size === 0) this.pending.delete(id);
      return;
    }
    if (this.sent.has(id)) return;
    const seen = this.early.get(id) ?? new Set<number>();
    seen.add(userId);
    this.early.set(id, seen);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a client waits before polling again after a failed poll (Zulip's apps back off too). */
const POLL_RETRY_MS = 1000;

/** fetch() reports every transport failure as "fetch failed"; the cause says which. */
function failureText(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  return err.cause ? `${err.message}: ${err.cause.code ?? ""} ${err.cause.message ?? ""}`.trim() : err.message;
}

export class SoakClient {
  private queueId = "";
  private lastEventId = -1;
  private readonly recent: number[] = [];
  private readonly reacted = new Set<number>();
  private counter = 0;
  private stopped = false;
  private parked: AbortController | null = null;

  constructor(
    readonly userId: number,
    private readonly api: ApiClient,
    private readonly channels: readonly SoakChannel[],
    private readonly everyone: readonly number[],
    private readonly stats: SoakStats,
  ) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(Math.random() * items.length)];
  }

  /** Calls the API, timing the call; a failure is counted and yields null. */
  private async timed(action: Action, call: () => Promise<ApiReply>): Promise<ApiReply | null> {
    const start = performance.now();
    try {
      const res = await call();
      this.stats.record(action, performance.now() - start);
      if (res.status === 200) return res;
      this.stats.error(action, `${res.status} ${JSON.stringify(res.body)}`);
    } catch (e) {
      this.stats.error(action, failureText(e));
    }
    return null;
  }

  async register(): Promise<void> {
    const res = await this.timed("poll", () => this.api.call("POST", "/register", { event_types: ["message", "reaction", "typing"] }));
    if (!res) throw new Error(`user ${this.userId} could not register: ${this.stats.errorSamples.at(-1)}`);
    this.queueId = res.body.queue_id;
    this.lastEventId = res.body.last_event_id;
  }

  /**
   * Long-polls until `stopPolling()`, recording every message event. A failed poll counts as an
   * error and is retried on the same queue, as a real client would, so later events still count.
   */
  async poll(): Promise<void> {
    while (!this.stopped) {
      const start = performance.now();
      // One controller per request: a signal shared by every poll piles up abort listeners.
      this.parked = new AbortController();
      let res: ApiReply;
      try {
        res = await this.api.call("GET", "/events", { queue_id: this.queueId, last_event_id: this.lastEventId }, this.parked.signal);
      } catch (e) {
        if (this.stopped) return;
        this.stats.error("poll", failureText(e));
        await sleep(POLL_RETRY_MS);
        continue;
      }
      this.stats.record("poll", performance.now() - start);
      if (res.status !== 200) {
        this.stats.error("poll", `${res.status} ${JSON.stringify(res.body)}`);
        await this.register();
        continue;
      }
      for (const event of res.body.events as Array<{ id: number; type: string; message?: { id: number } }>) {
        this.lastEventId = Math.max(this.lastEventId, event.id);
        if (event.type !== "message" || !event.message) continue;
        this.stats.delivered(event.message.id, this.userId);
        this.recent.push(event.message.id);
        if (this.recent.length > RECENT) this.recent.shift();
      }
    }
  }

  stopPolling(): void {
    this.stopped = true;
    this.parked?.abort();
  }

  /** Acts until `done()` says to stop, thinking a uniform 0..2×thinkMs between actions. */
  async act(done: () => boolean, thinkMs: number): Promise<void> {
    while (!done()) {
      await sleep(Math.random() * 2 * thinkMs);
      if (done()) return;
      let roll = Math.random() * TOTAL_WEIGHT;
      const action = WEIGHTS.find(([, w]) => (roll -= w) < 0)?.[0] ?? "send";
      await this.perform(this.recent.length === 0 && (action === "fetch" || action === "react") ? "send" : action);
    }
  }

  private async perform(action: Exclude<Action, "poll">): Promise<void> {
    const channel = this.pick(this.channels);
    const topic = `topic ${Math.floor(Math.random() * TOPICS)}`;
    switch (action) {
      case "send":
        return this.send(channel, topic);
      case "fetch": {
        const id = this.pick(this.recent);
        await this.timed("fetch", () => this.api.call("GET", `/messages/${id}`));
        return;
      }
      case "list": {
        const narrow = [{ operator: "channel", operand: channel.name }];
        await this.timed("list", () => this.api.call("GET", "/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow }));
        return;
      }
      case "react": {
        const id = this.pick(this.recent);
        const removing = this.reacted.has(id);
        const res = await this.timed("react", () => this.api.call(removing ? "DELETE" : "POST", `/messages/${id}/reactions`, { emoji_name: "heart" }));
        if (res && removing) this.reacted.delete(id);
        else if (res) this.reacted.add(id);
        return;
      }
      case "typing":
        await this.timed("typing", () => this.api.call("POST", "/typing", { type: "stream", op: "start", stream_id: channel.id, topic }));
        return;
    }
  }

  private async send(channel: SoakChannel, topic: string): Promise<void> {
    const content = `soak ${this.userId}-${++this.counter}: **bold**, \`code\` and a [link](https://example.com/${this.counter})`;
    if (Math.random() < DIRECT_SHARE) {
      const other = this.pick(this.everyone.filter((id) => id !== this.userId));
      const res = await this.timed("send", () => this.api.call("POST", "/messages", { type: "direct", to: [other], content }));
      if (res) this.stats.expect(res.body.id, this.userId, [this.userId, other]);
      return;
    }
    const res = await this.timed("send", () => this.api.call("POST", "/messages", { type: "stream", to: channel.name, topic, content }));
    if (res) this.stats.expect(res.body.id, this.userId, channel.subscribers);
  }
}
