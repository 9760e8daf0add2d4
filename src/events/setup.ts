/** Builds this process's event system: the queue registry and the bus that feeds it. */
import type { Config } from "../config.js";
import { LocalEventBus, type EventBus } from "./bus.js";
import { RedisEventBus } from "./redis-bus.js";
import { QueueRegistry } from "./registry.js";

export interface EventSystem {
  bus: EventBus;
  queues: QueueRegistry;
}

/** `deploymentId` (store/deployment.ts) keeps deployments sharing one Redis apart. */
export function createEventSystem(config: Config, deploymentId: string, onError: (err: unknown) => void): EventSystem {
  const queues = new QueueRegistry();
  if (config.redisUrl) return { bus: new RedisEventBus(config.redisUrl, deploymentId, queues, onError), queues };
  const bus = new LocalEventBus();
  bus.subscribe((event, userIds) => queues.deliver(event, userIds));
  return { bus, queues };
}
