/** Builds this process's event system: the queue registry and the bus that feeds it. */
import type { Config } from "../config.js";
import { LocalEventBus, type EventBus } from "./bus.js";
import { RedisEventBus, type RedisBusHooks } from "./redis-bus.js";
import { QueueRegistry } from "./registry.js";

export interface EventSystem {
  bus: EventBus;
  queues: QueueRegistry;
  /** Resolves once the bus can deliver (Redis answered and subscribed); rejects after `timeoutMs`. */
  ready(timeoutMs: number): Promise<void>;
}

export interface EventSystemHooks extends RedisBusHooks {
  /** An unexpected error inside the bus (an unreadable message from Redis). */
  onError(err: unknown): void;
  /** This process is cluster worker N (queue ids name it); null or absent: a single process. */
  workerIndex?: number | null;
  /**
   * Without Redis, the bus between cluster workers (cluster/ipc-bus.ts); absent: events stay in
   * this process.
   */
  workerBus?: (queues: QueueRegistry) => EventBus;
}

/** `deploymentId` (store/deployment.ts) keeps deployments sharing one Redis apart. */
export function createEventSystem(config: Config, deploymentId: string, hooks: EventSystemHooks): EventSystem {
  const queues = new QueueRegistry(hooks.workerIndex ?? null);
  if (config.redisUrl) {
    const bus = new RedisEventBus(config.redisUrl, deploymentId, queues, hooks.onError, hooks);
    return { bus, queues, ready: (timeoutMs) => bus.ready(timeoutMs) };
  }
  if (hooks.workerBus) return { bus: hooks.workerBus(queues), queues, ready: async () => undefined };
  const bus = new LocalEventBus();
  // In one process delivery happens inside the publish call: there is no latency to observe.
  bus.subscribe((event, userIds) => queues.deliver(event, userIds));
  return { bus, queues, ready: async () => undefined };
}
