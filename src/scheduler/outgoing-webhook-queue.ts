/**
 * The runner of the durable outgoing-webhook queue (actions/outgoing-webhooks/queue.ts): woken
 * after a triggering message's commit, it sends what is due with at most CONCURRENCY bots at a
 * time, never on the sender's request. At start it sends what a previous process left, and it
 * looks again every SWEEP_MS for rows other processes queued or whose lease ran out.
 */
import type { AppDeps } from "../deps.js";
import { deliverNextOutgoingWebhooks, nextOutgoingWebhookTime } from "../actions/outgoing-webhooks/queue.js";
import type { OutgoingWebhookQueue } from "../actions/outgoing-webhooks/triggers.js";

export const OUTGOING_WEBHOOK_CONCURRENCY = 4;
/** How often a running server looks for rows it was not woken for. */
const SWEEP_MS = 30_000;

export class OutgoingWebhookRunner implements OutgoingWebhookQueue {
  private workers = 0;
  private again = false;
  private waiters: Array<() => void> = [];
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: AppDeps,
    private readonly opts: { onError: (err: unknown) => void },
  ) {}

  /** Sends what is left from before, then keeps looking now and then. */
  start(): void {
    this.wake();
    this.sweep = setInterval(() => this.wake(), SWEEP_MS);
    this.sweep.unref();
  }

  async stop(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
    await this.idle();
  }

  /** Something was queued (or may be due): send it. */
  wake(): void {
    this.again = true;
    while (this.workers < OUTGOING_WEBHOOK_CONCURRENCY) {
      this.workers++;
      void this.work();
    }
  }

  /** Resolves once no worker is running (tests, shutdown). */
  idle(): Promise<void> {
    if (this.workers === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** When the next queued POST falls due, for tests and metrics. */
  nextDue(): Promise<number | null> {
    return nextOutgoingWebhookTime(this.deps);
  }

  private async work(): Promise<void> {
    try {
      for (;;) {
        this.again = false;
        let sent: boolean;
        try {
          sent = await deliverNextOutgoingWebhooks(this.deps);
        } catch (err) {
          this.opts.onError(err);
          sent = false;
        }
        if (!sent && !this.again) break;
      }
    } finally {
      this.workers--;
      if (this.workers === 0) {
        const waiters = this.waiters;
        this.waiters = [];
        for (const resolve of waiters) resolve();
      }
    }
  }
}
