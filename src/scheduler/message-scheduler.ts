/**
 * The server's delivery of scheduled messages and reminders: a timer that wakes when the next row
 * is due (never a busy poll), sends what is due in bounded batches (actions/scheduled-delivery.ts),
 * then sleeps until the next due time. Zulip runs the same loop as its deliver_scheduled_messages
 * worker, at minute granularity; here a row is sent within a second of its time when this process
 * scheduled it, and within `maxSleepMs` when another process did (every process looks again at
 * least that often, so any of them delivers when the others are gone). Several processes may run
 * it on one PostgreSQL store: each row is claimed by one of them (store/scheduled-messages.ts).
 *
 * The first look is at start, so rows that fell due while no server ran are sent then.
 */
import { deliverDue, nextScheduledDelivery } from "../actions/scheduled-delivery.js";
import type { AppDeps, ScheduleWaker } from "../deps.js";

/** The pause before looking again at a due row that another process is sending. */
const BUSY_ELSEWHERE_MS = 1000;

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Node's timers, not keeping the process alive. */
const NODE_TIMERS: Timers = {
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface SchedulerOptions {
  /** Rows sent in one go before the event loop gets a turn. */
  batchSize?: number;
  /** The longest sleep, so rows scheduled by other processes are seen. */
  maxSleepMs?: number;
  /** The wait before trying again after the store failed. */
  retryMs?: number;
  /** Told of every error (a failed send is also recorded on its row). */
  onError?: (err: unknown) => void;
  /** Tests drive the timer themselves. */
  timers?: Timers;
}

export class MessageScheduler implements ScheduleWaker {
  private readonly batchSize: number;
  private readonly maxSleepMs: number;
  private readonly retryMs: number;
  private readonly onError: (err: unknown) => void;
  private readonly timers: Timers;
  private timer: unknown = null;
  /** When the armed timer fires (UTC seconds by the deps' clock). */
  private armedFor: number | null = null;
  private running: Promise<void> | null = null;
  /** The earliest wake asked for while a round was running. */
  private pendingWake: number | null = null;
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    opts: SchedulerOptions = {},
  ) {
    this.batchSize = opts.batchSize ?? 100;
    this.maxSleepMs = opts.maxSleepMs ?? 60_000;
    this.retryMs = opts.retryMs ?? 10_000;
    this.onError = opts.onError ?? (() => {});
    this.timers = opts.timers ?? NODE_TIMERS;
  }

  /** Looks at once (rows overdue since the last run are sent now), then as they fall due. */
  start(): void {
    this.arm(0);
  }

  /** Something falls due at `at` (UTC seconds): make sure to look by then. */
  wake(at: number): void {
    if (this.stopped) return;
    if (this.running) {
      this.pendingWake = Math.min(this.pendingWake ?? at, at);
      return;
    }
    if (this.armedFor === null || at < this.armedFor) this.arm(Math.max(0, (at - this.deps.clock.now()) * 1000));
  }

  /** Stops the timer and waits for a round in progress to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    await this.idle();
  }

  /** Resolves once no round is in progress. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** When the timer is set to fire next (UTC seconds), or null; for tests. */
  get nextWake(): number | null {
    return this.armedFor;
  }

  private arm(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer !== null) this.timers.clear(this.timer);
    const ms = Math.min(Math.max(0, delayMs), this.maxSleepMs);
    this.armedFor = this.deps.clock.now() + Math.ceil(ms / 1000);
    this.timer = this.timers.set(() => {
      this.timer = null;
      this.armedFor = null;
      this.running = this.round().finally(() => {
        this.running = null;
        const pending = this.pendingWake;
        this.pendingWake = null;
        if (pending !== null) this.wake(pending);
      });
    }, ms);
  }

  /** Sends a batch of what is due, then sets the timer for what comes next. */
  private async round(): Promise<void> {
    let delayMs: number;
    try {
      const attempted = await deliverDue(this.deps, this.batchSize, this.onError);
      if (attempted >= this.batchSize) {
        delayMs = 0;
      } else {
        const next = await nextScheduledDelivery(this.deps);
        const now = this.deps.clock.now();
        if (next === null) delayMs = this.maxSleepMs;
        // Due, yet nothing was taken: another process holds it (PostgreSQL row lock). Look again
        // shortly rather than at once, which would spin while that process sends it.
        else if (next <= now && attempted === 0) delayMs = BUSY_ELSEWHERE_MS;
        else delayMs = (next - now) * 1000;
      }
    } catch (err) {
      this.onError(err);
      delayMs = this.retryMs;
    }
    this.arm(delayMs);
  }
}
