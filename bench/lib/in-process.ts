/**
 * Parley's dependencies built inside the benchmark process itself, for seeding through the actions
 * and for recording the SQL one request runs (bench/lib/replay.ts). Nothing here listens on a port.
 */
import { PresenceService } from "../../src/actions/users/presence.js";
import { loadConfig } from "../../src/config.js";
import { systemClock, type AppDeps } from "../../src/deps.js";
import { LocalEventBus } from "../../src/events/bus.js";
import { QueueRegistry } from "../../src/events/registry.js";
import type { Store } from "../../src/store/db.js";

export function benchDeps(store: Store, externalHost: string): AppDeps {
  const events = new LocalEventBus();
  const queues = new QueueRegistry();
  events.subscribe((event, userIds) => queues.deliver(event, userIds));
  return {
    config: loadConfig({ EXTERNAL_HOST: externalHost, RATE_LIMITING: "off", LOG_LEVEL: "silent" }),
    store,
    clock: systemClock,
    events,
    queues,
    presence: new PresenceService(store, events),
    rateLimiter: null,
  };
}
