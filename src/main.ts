/** Process entry: configuration, store, migrations, first-start realm, event queues, then listen. */
import { join } from "node:path";
import { buildApp } from "./app.js";
import { ensureInitialRealm } from "./bootstrap.js";
import { loadConfig } from "./config.js";
import { systemClock, type AppDeps } from "./deps.js";
import { createEventSystem } from "./events/setup.js";
import { PresenceService } from "./actions/presence.js";
import { startUnclaimedAttachmentCleanup } from "./uploads/cleanup.js";
import { MemoryRateCounter, createRateCounter } from "./lib/rate-limiter.js";
import { realmUrl } from "./lib/realm-url.js";
import { openStore, readTx } from "./store/db.js";
import { getDeploymentId } from "./store/deployment.js";
import { migrateToLatest } from "./store/migrate.js";

/** How often idle event queues are collected. */
const QUEUE_GC_INTERVAL_MS = 60_000;
/** How often coalesced presence pings are written (one transaction per interval). */
const PRESENCE_FLUSH_INTERVAL_MS = 2_000;

async function main(): Promise<void> {
  // Everything the server creates (SQLite files, uploads, saved queues, credentials) is the
  // service user's alone: they hold password hashes, API keys and private files (issue 16, F12).
  process.umask(0o077);
  const config = loadConfig();
  const store = openStore(config.databaseUrl, { backgroundCheckpoints: true });
  await migrateToLatest(store);
  const deploymentId = await getDeploymentId(readTx(store));
  const eventSystem = createEventSystem(config, deploymentId, (err) => console.error("event bus error", err));
  const deps: AppDeps = {
    config,
    store,
    clock: systemClock,
    events: eventSystem.bus,
    queues: eventSystem.queues,
    presence: new PresenceService(store, eventSystem.bus, { limitToAccessible: config.canAccessAllUsersGroupLimitsPresence }),
    rateLimiter: createRateCounter(config, deploymentId),
  };
  const created = await ensureInitialRealm(deps, realmUrl(config.externalHost, ""));
  if (created) {
    // The secrets stay in the 0600 file: logs are often collected and kept elsewhere (issue 16, F16).
    console.log(
      `Created the organization on the root domain with owner ${created.email}; ` +
        `its password and API key are in ${join(config.varDir, "initial-credentials.json")} (readable only by you)`,
    );
  }
  // Queues saved by the previous process on this port come back, so clients keep polling them.
  const queueFile = join(config.varDir, `event-queues-${config.port}.json`);
  if (deps.queues.load(queueFile) > 0) await deps.events.whenSubscribed?.();
  const app = await buildApp(deps);
  const gc = setInterval(() => deps.queues.collectIdle(deps.clock.now()), QUEUE_GC_INTERVAL_MS);
  gc.unref();
  const presenceFlush = setInterval(() => void deps.presence.flush().catch((err) => app.log.error({ err }, "presence flush")), PRESENCE_FLUSH_INTERVAL_MS);
  presenceFlush.unref();
  const stopAttachmentCleanup = startUnclaimedAttachmentCleanup(deps, {
    onError: (err) => app.log.error({ err }, "unclaimed attachment cleanup failed"),
  });
  const limiter = deps.rateLimiter;
  const sweep = limiter instanceof MemoryRateCounter ? setInterval(() => limiter.sweep(deps.clock.now()), QUEUE_GC_INTERVAL_MS) : null;
  sweep?.unref();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    clearInterval(gc);
    clearInterval(presenceFlush);
    stopAttachmentCleanup();
    await deps.presence.flush();
    // Parked long-polls are answered (empty) so app.close() can drain; clients poll again later.
    deps.queues.releaseWaiters();
    await app.close();
    // Events of requests that finished during the drain must be in the queues before they are saved.
    await deps.events.flush?.();
    deps.queues.save(queueFile);
    await deps.events.close?.();
    await store.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
