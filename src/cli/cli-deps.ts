/**
 * What an action needs when the operator runs it from the shell. Events go where a server's would:
 * with REDIS_URL set, onto the deployment's Redis bus, so clients of running servers see a role
 * change or a deactivation at once (as Zulip's management commands reach Tornado); without Redis
 * (one server process, its queues in its own memory) no other process can hear them, and clients
 * see the change in the rows when they next register.
 */
import { PresenceService } from "../actions/users/presence.js";
import type { Config } from "../config.js";
import { systemClock, type AppDeps } from "../deps.js";
import { LocalEventBus, type EventBus } from "../events/bus.js";
import { QueueRegistry } from "../events/registry.js";
import { createEventSystem } from "../events/setup.js";
import { errorFields, logLine } from "../lib/log.js";
import { readTx, type Store } from "../store/db.js";
import { getDeploymentId } from "../store/deployment.js";

const BUS_READY_TIMEOUT_MS = 5_000;

export async function withCliDeps<T>(store: Store, config: Config, work: (deps: AppDeps) => Promise<T>): Promise<T> {
  const system = config.redisUrl
    ? createEventSystem(config, await getDeploymentId(readTx(store)), { onError: (err) => logLine("error", "event bus", { err: errorFields(err) }) })
    : { bus: new LocalEventBus(), queues: new QueueRegistry(), ready: async () => undefined };
  const events: EventBus = system.bus;
  try {
    await system.ready(BUS_READY_TIMEOUT_MS);
    const presence = new PresenceService(store, events, { limitToAccessible: config.canAccessAllUsersGroupLimitsPresence });
    const result = await work({ config, store, clock: systemClock, events, queues: system.queues, presence, rateLimiter: null });
    await events.flush?.();
    return result;
  } finally {
    await events.close?.();
  }
}
