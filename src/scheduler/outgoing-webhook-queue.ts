/**
 * The in-process queue of outgoing-webhook POSTs (actions/outgoing-webhooks/): jobs arrive after
 * their message's commit and run here, never on the sender's request, at most CONCURRENCY at a
 * time; at most MAX_PENDING wait (more are dropped and logged, so a flood of mentions cannot grow
 * memory without bound). A retry goes to the back of the queue, as Zulip's retry_event requeues.
 * Jobs live in memory: a restart loses the ones not yet sent (Zulip's RabbitMQ queue keeps them).
 */
import type { AppDeps } from "../deps.js";
import { deliverOutgoingWebhook } from "../actions/outgoing-webhooks/deliver.js";
import type { OutgoingWebhookJob, OutgoingWebhookQueue } from "../actions/outgoing-webhooks/triggers.js";

export const OUTGOING_WEBHOOK_CONCURRENCY = 4;
export const MAX_PENDING_OUTGOING_WEBHOOKS = 1000;

interface Pending {
  job: OutgoingWebhookJob;
  attempt: number;
}

export class OutgoingWebhookRunner implements OutgoingWebhookQueue {
  private readonly pending: Pending[] = [];
  private running = 0;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly deps: AppDeps,
    private readonly opts: { onError: (err: unknown) => void; onDrop?: (job: OutgoingWebhookJob) => void },
  ) {}

  enqueue(job: OutgoingWebhookJob): void {
    this.push({ job, attempt: 0 });
  }

  /** Resolves once nothing is queued or running (tests, shutdown). */
  idle(): Promise<void> {
    if (this.running === 0 && this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private push(item: Pending): void {
    if (this.pending.length >= MAX_PENDING_OUTGOING_WEBHOOKS) {
      this.opts.onDrop?.(item.job);
      return;
    }
    this.pending.push(item);
    this.pump();
  }

  private pump(): void {
    while (this.running < OUTGOING_WEBHOOK_CONCURRENCY && this.pending.length > 0) {
      const item = this.pending.shift() as Pending;
      this.running++;
      void this.run(item);
    }
    if (this.running === 0 && this.pending.length === 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async run(item: Pending): Promise<void> {
    try {
      const outcome = await deliverOutgoingWebhook(this.deps, item.job, item.attempt);
      if (outcome === "retry") this.pending.push({ job: item.job, attempt: item.attempt + 1 });
    } catch (err) {
      this.opts.onError(err);
    } finally {
      this.running--;
      this.pump();
    }
  }
}
