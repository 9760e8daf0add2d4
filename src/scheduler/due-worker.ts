/**
 * A timer over a durable queue of work that falls due (scheduled messages: message-scheduler.ts;
 * notifications: notification-worker.ts): it wakes when the next row is due (never a busy poll),
 * does what is due in bounded batches, then sleeps until the next due time. A row is handled within
 * a second of its time when this process queued it (it calls `wake`), and within `maxSleepMs` when
 * another process did (every process looks again at least that often, so any of them does the work
 * when the others are gone). Several processes may run one on a PostgreSQL store: the job claims
 * each row for one of them.
 *
 * The first look is at start, so rows that fell due while no server ran are handled then.
 */
import type { AppDeps, ScheduleWaker } from "../deps.js";

/** The work a DueWorker drives. */
export interface DueJob {
  /** Handles up to `limit` due rows; answers how many it attempted. */
  deliverDue(deps: AppDeps, limit: number, onError: (err: unknown) => void): Promise<number>;
  /** When the next row falls due (UTC seconds), or null when nothing waits. */
  nextDue(deps: AppDeps): Promise<number | null>;
}

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

export class DueWorker implements ScheduleWaker {
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
    private readonly job: DueJob,
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
      const attempted = await this.job.deliverDue(this.deps, this.batchSize, this.onError);
      if (attempted >= this.batchSize) {
        delayMs = 0;
      } else {
        const next = await this.job.nextDue(this.deps);
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
