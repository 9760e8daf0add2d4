/**
 * The event bus between the workers of one server without Redis (WORKERS > 1, no REDIS_URL):
 * every event goes to the cluster primary over IPC, which sends it to every worker, this one
 * included. Like the Redis bus (events/redis-bus.ts), local deliveries take the same road as
 * remote ones, so every worker's queues see one order of events: the order the primary received
 * them in. The primary keeps nothing; a worker that was down has no queues to catch up.
 */
import { randomUUID } from "node:crypto";
import type { ChatEvent, EventBus } from "../events/bus.js";
import type { QueueRegistry } from "../events/registry.js";
import { isParleyMessage, type PrimaryToWorker, type WorkerToPrimary } from "./messages.js";

const FLUSH_TIMEOUT_MS = 5_000;

/** The IPC end of a worker: `process` in a forked worker, a stand-in in tests. */
export interface IpcChannel {
  send?(message: WorkerToPrimary): unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
  connected?: boolean;
}

/** Sends to the primary; without it (it died) nothing can be delivered and the worker is stopping. */
export function sendToPrimary(channel: IpcChannel, message: WorkerToPrimary): void {
  if (channel.connected === false || !channel.send) return;
  channel.send(message);
}

export interface IpcBusHooks {
  onDelivered?(event: ChatEvent, latencyMs: number): void;
  onError?(err: unknown): void;
}

export class IpcEventBus implements EventBus {
  private readonly flushWaiters = new Map<string, () => void>();

  constructor(
    private readonly channel: IpcChannel,
    private readonly registry: QueueRegistry,
    private readonly hooks: IpcBusHooks = {},
  ) {
    channel.on("message", (message) => {
      if (isParleyMessage<PrimaryToWorker>(message)) this.receive(message);
    });
  }

  publish(event: ChatEvent, userIds: readonly number[]): void {
    sendToPrimary(this.channel, { parley: "publish", event, userIds, publishedAt: Date.now() });
  }

  /** Resolves once every event this worker published earlier has come back (or after a timeout). */
  async flush(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    if (this.channel.connected === false) return;
    const token = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const returned = new Promise<void>((resolve) => {
      this.flushWaiters.set(token, resolve);
      // A primary that is gone must not hold a shutdown forever.
      timer = setTimeout(resolve, timeoutMs);
    });
    sendToPrimary(this.channel, { parley: "flush", token });
    try {
      await returned;
    } finally {
      clearTimeout(timer);
      this.flushWaiters.delete(token);
    }
  }

  private receive(message: PrimaryToWorker): void {
    if (message.parley === "deliver") {
      try {
        this.registry.deliver(message.event, message.userIds);
        this.hooks.onDelivered?.(message.event, Date.now() - message.publishedAt);
      } catch (err) {
        this.hooks.onError?.(err);
      }
    } else if (message.parley === "flushed") {
      this.flushWaiters.get(message.token)?.();
      this.flushWaiters.delete(message.token);
    }
  }
}
