/**
 * Process entry. Start-up runs in an order that creates nothing until it knows the server can run
 * (issue 18, item 7): configuration, the port, writable directories, Redis and the store answering;
 * then migrations (logged), the event bus, the first-start organization, and listening. Any
 * failure is one JSON line naming the setting and the fix, and exit code 1. Every line this
 * process writes is JSON (lib/log.ts here, pino for requests).
 */
import cluster from "node:cluster";
import { join } from "node:path";
import type { FastifyListenOptions } from "fastify";
import { buildApp, requestHandlerOf } from "./app.js";
import { ensureInitialRealm } from "./bootstrap.js";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { systemClock, type AppDeps } from "./deps.js";
import { createEventSystem } from "./events/setup.js";
import { PresenceService } from "./actions/users/presence.js";
import { Metrics } from "./http/metrics.js";
import { startUnclaimedAttachmentCleanup } from "./scheduler/attachment-cleanup.js";
import { MessageScheduler } from "./scheduler/message-scheduler.js";
import { NotificationWorker } from "./scheduler/notification-worker.js";
import { OutgoingWebhookRunner } from "./scheduler/outgoing-webhook-queue.js";
import { UserMessageDeletionWorker } from "./scheduler/user-message-deletion.js";
import { MemoryRateCounter, createRateCounter } from "./lib/rate-limiter.js";
import { errorFields, logLine, setLogLevel } from "./lib/log.js";
import { realmUrl } from "./lib/realm-url.js";
import { readTx } from "./store/db.js";
import { getDeploymentId } from "./store/deployment.js";
import { migrateToLatest } from "./store/migrate.js";
import { StoreInUse, takeStoreLock } from "./store/server-lock.js";
import { checkPortFree, checkRedisAnswers, checkWritablePaths, listenError, openAnsweringStore, withoutPassword } from "./startup/checks.js";
import { PARLEY_VERSION, ZULIP_FEATURE_LEVEL } from "./version.js";
import { runPrimary } from "./cluster/primary.js";
import { startWorkerLink } from "./cluster/worker.js";
import { IpcWriteGate } from "./cluster/write-gate.js";
import type { IpcChannel } from "./cluster/ipc-bus.js";
import { IpcEventBus } from "./cluster/ipc-bus.js";

/** How often idle event queues are collected. */
const QUEUE_GC_INTERVAL_MS = 60_000;
/** How often coalesced presence pings are written (one transaction per interval). */
const PRESENCE_FLUSH_INTERVAL_MS = 2_000;
/** How long start-up waits for the event bus's connections and subscriptions. */
const BUS_READY_TIMEOUT_MS = 5_000;

/** Anything that escapes is still one JSON line (no multi-line stack on stderr), then exit 1. */
function logFatalAndExit(err: unknown): never {
  if (err instanceof ConfigError) logLine("fatal", err.message, { setting: err.setting });
  else logLine("fatal", `Parley stopped: ${(err as Error)?.message ?? String(err)}`, { err: errorFields(err) });
  process.exit(1);
}

/** Node's own warnings and anything uncaught become JSON lines too. */
function routeProcessDiagnostics(): void {
  process.removeAllListeners("warning");
  process.on("warning", (warning) => logLine("warn", warning.message, { err: errorFields(warning) }));
  process.on("uncaughtException", logFatalAndExit);
  process.on("unhandledRejection", logFatalAndExit);
}

/**
 * WORKERS > 1 needs what every worker can share: a store on disk (an in-memory SQLite database
 * would be one per worker) and a port of its own (a socket handed over by systemd is one
 * process's; deploy/systemd runs one process per unit and scales with units).
 */
function singleProcessWhereNeeded(config: Config): Config {
  if (config.workers === 1 || config.workerIndex !== null) return config;
  const reason = config.listenFd !== null ? "the listening socket came from systemd (LISTEN_FDS)" : config.databaseUrl === "sqlite::memory:" ? "the SQLite database is in memory" : null;
  if (!reason) return config;
  // At info: WORKERS defaults to the cores, so every socket-activated start would otherwise warn.
  logLine("info", `WORKERS=${config.workers} ignored: one process serves, because ${reason}`, { setting: "WORKERS" });
  return { ...config, workers: 1 };
}

function describeStore(config: Config): string {
  return withoutPassword(config.databaseUrl);
}

async function main(): Promise<void> {
  // Everything the server creates (SQLite files, uploads, saved queues, credentials) is the
  // service user's alone: they hold password hashes, API keys and private files (issue 16, F12).
  process.umask(0o077);
  routeProcessDiagnostics();
  const config = singleProcessWhereNeeded(loadConfig());
  setLogLevel(config.logLevel);
  const worker = config.workerIndex;
  if (worker === null) logLine("info", `starting Parley ${PARLEY_VERSION}`, { version: PARLEY_VERSION, zulip_feature_level: ZULIP_FEATURE_LEVEL, node: process.version });

  // WORKERS > 1: this process is the cluster primary, and forks the workers (cluster/primary.ts).
  if (worker === null && config.workers > 1 && cluster.isPrimary) {
    await checkPortFree(config);
    checkWritablePaths(config);
    await checkRedisAnswers(config);
    runPrimary(config, !config.redisUrl);
    return;
  }
  // A worker shares the port its primary holds: only a single process checks it is free.
  if (worker === null) await checkPortFree(config);
  checkWritablePaths(config);
  await checkRedisAnswers(config);
  const store = await openAnsweringStore(config);
  // Held until exit: `manage restore` and `manage convert` refuse to run under it (issue 18, item 5).
  const serverLock = await takeStoreLock(store, "shared").catch((err) => {
    throw err instanceof StoreInUse ? new ConfigError("DATABASE_URL", err.message) : err;
  });
  const applied = await migrateToLatest(store);
  logLine("info", applied.length ? `applied ${applied.length} migration(s)` : "the schema is up to date", { store: describeStore(config), migrations: applied });
  const deploymentId = await getDeploymentId(readTx(store));

  const metrics = new Metrics({ processMetrics: true });
  const eventSystem = createEventSystem(config, deploymentId, {
    workerIndex: worker,
    // Cluster workers without Redis: events go round through the primary (cluster/ipc-bus.ts).
    workerBus:
      worker !== null && !config.redisUrl
        ? (queues) => new IpcEventBus(process, queues, { onDelivered: (event, ms) => metrics.observeDelivery(event, ms), onError: (err) => logLine("error", "event bus: undeliverable event", { err: errorFields(err) }) })
        : undefined,
    onError: (err) => logLine("error", "event bus: unreadable message", { err: errorFields(err) }),
    onDelivered: (event, ms) => metrics.observeDelivery(event, ms),
    onAvailability: (available, reason, discarded) =>
      available
        ? logLine("info", "event bus: Redis answers again; events flow, clients re-register", { redis: "up" })
        : logLine("error", `event bus: ${reason}; ${discarded} event queue(s) dropped so their clients re-register, writes answer 503 until Redis is back`, { redis: "down", discarded_queues: discarded }),
    onRestoreDropped: (reason, discarded) =>
      logLine("warn", `event bus: the saved event queues were dropped (${reason}); their clients re-register`, { discarded_queues: discarded }),
  });
  // A worker's link to the primary: the event bus without Redis, and where the other workers are.
  const link = worker !== null ? startWorkerLink(worker, eventSystem.queues) : null;
  // SQLite: the workers write one at a time, each waiting for its turn without blocking (cluster/write-gate.ts).
  if (worker !== null && store.dialect === "sqlite") store.writeGate = new IpcWriteGate(process as IpcChannel, (seconds) => metrics.observeWriteTurnWait(seconds));
  const deps: AppDeps = {
    queueOwners: link?.forwarder,
    config,
    store,
    clock: systemClock,
    events: eventSystem.bus,
    queues: eventSystem.queues,
    presence: new PresenceService(store, eventSystem.bus, { limitToAccessible: config.canAccessAllUsersGroupLimitsPresence }),
    rateLimiter: createRateCounter(config, deploymentId),
  };
  try {
    await Promise.all([eventSystem.ready(BUS_READY_TIMEOUT_MS), deps.rateLimiter?.ready?.(BUS_READY_TIMEOUT_MS)]);
  } catch (err) {
    throw new ConfigError("REDIS_URL", `Redis at ${withoutPassword(config.redisUrl ?? "")} did not become ready (${(err as Error).message}); check that it runs and accepts this client`);
  }

  const created = await ensureInitialRealm(deps, realmUrl(config.externalHost, ""));
  if (created) {
    // The secrets stay in the 0600 file: logs are often collected and kept elsewhere (issue 16, F16).
    const credentials = join(config.varDir, "initial-credentials.json");
    // At warn, so that even a quiet LOG_LEVEL shows it: the operator has a file to read and delete.
    logLine(
      "warn",
      `Created the organization on the root domain with owner ${created.email}; its password and API key are in ${credentials} (readable only by you)`,
      { owner: created.email, credentials_file: credentials },
    );
  }
  // Queues saved by the previous process on this port come back, so clients keep polling them.
  const queueFile = join(config.varDir, `event-queues-${config.port}${worker !== null ? `-w${worker}` : ""}.json`);
  let busState: unknown = null;
  const restored = deps.queues.load(queueFile, (state) => (busState = state));
  if (restored > 0) await (deps.events.restore ? deps.events.restore(busState) : deps.events.whenSubscribed?.());
  // Scheduled messages and reminders: sent as they fall due, overdue ones at once.
  const scheduler = new MessageScheduler(deps, { onError: (err) => logLine("error", "scheduled message delivery failed", { err: errorFields(err) }) });
  deps.scheduler = scheduler;
  // Missed-message emails and mobile pushes: sent as they fall due, ones left by a crash at once.
  const notifier = new NotificationWorker(deps, { onError: (err) => logLine("error", "notification delivery failed", { err: errorFields(err) }) });
  deps.notifier = notifier;
  // Outgoing-webhook bots are called after the triggering message's commit, off the request.
  const outgoingWebhooks = new OutgoingWebhookRunner(deps, {
    onError: (err) => logLine("error", "outgoing webhook delivery failed", { err: errorFields(err) }),
  });
  deps.outgoingWebhooks = outgoingWebhooks;
  // Messages of deactivated users that an administrator asked to delete (FL 459), batch by batch.
  const messageDeleter = new UserMessageDeletionWorker(deps, { onError: (err) => logLine("error", "deleting a user's messages failed", { err: errorFields(err) }) });
  deps.messageDeleter = messageDeleter;
  const app = await buildApp(deps, { metrics });
  scheduler.start();
  notifier.start();
  outgoingWebhooks.start();
  messageDeleter.start();
  const gc = setInterval(() => deps.queues.collectIdle(deps.clock.now()), QUEUE_GC_INTERVAL_MS);
  gc.unref();
  const presenceFlush = setInterval(() => void deps.presence.flush().catch((err) => app.log.error({ err }, "presence flush")), PRESENCE_FLUSH_INTERVAL_MS);
  presenceFlush.unref();
  // One process of a cluster is enough to sweep unclaimed uploads.
  const stopAttachmentCleanup = worker !== null && worker > 0 ? () => undefined : startUnclaimedAttachmentCleanup(deps, {
    onError: (err) => app.log.error({ err }, "unclaimed attachment cleanup failed"),
  });
  const limiter = deps.rateLimiter;
  const sweep = limiter instanceof MemoryRateCounter ? setInterval(() => limiter.sweep(deps.clock.now()), QUEUE_GC_INTERVAL_MS) : null;
  sweep?.unref();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logLine("info", "shutting down", { signal });
    clearInterval(gc);
    clearInterval(presenceFlush);
    stopAttachmentCleanup();
    await scheduler.stop();
    await notifier.stop();
    await outgoingWebhooks.stop();
    await messageDeleter.stop();
    await deps.presence.flush().catch((err) => logLine("error", "presence flush at shutdown failed", { err: errorFields(err) }));
    // Parked long-polls are answered (empty) so app.close() can drain; clients poll again later.
    deps.queues.releaseWaiters();
    await link?.close();
    await app.close();
    // Events of requests that finished during the drain must be in the queues before they are saved.
    await deps.events.flush?.();
    deps.queues.save(queueFile, (await deps.events.savedState?.()) ?? null);
    await deps.events.close?.();
    await serverLock.release();
    await store.close();
    logLine("info", "stopped", { saved_queues: deps.queues.size });
    process.exit(0);
  };
  // A worker may be told twice (systemd's signal to the group and its primary's): the second is
  // ignored rather than killing it mid-drain. A single process keeps a second signal's default.
  const onSignal = worker !== null ? process.on.bind(process) : process.once.bind(process);
  onSignal("SIGTERM", () => void shutdown("SIGTERM"));
  onSignal("SIGINT", () => void shutdown("SIGINT"));
  // A worker whose primary is gone would serve with no bus and no restarts: it stops too.
  if (worker !== null) process.once("disconnect", () => void shutdown("primary gone"));
  try {
    // Socket activation (deploy/systemd/parley@.socket): the inherited socket, which keeps
    // connections waiting across a restart; otherwise HOST:PORT. Fastify passes `fd` through to
    // Node's listen, which then ignores the host (given only so Fastify does not bind "localhost").
    const at = config.listenFd !== null ? ({ fd: config.listenFd, host: "127.0.0.1" } as FastifyListenOptions) : { port: config.port, host: config.host };
    await app.listen(at);
  } catch (err) {
    throw listenError(err, config);
  }
  if (link) {
    // Forwarded polls are served as direct ones: on the long-poll path, before Fastify.
    const forwardPort = await link.serve(requestHandlerOf(app));
    logLine("info", "worker ready", { worker, pid: process.pid, forward_port: forwardPort, store: store.dialect, redis: config.redisUrl ? "on" : "off", restored_queues: restored });
    return;
  }
  logLine("info", "ready", {
    address: config.listenFd !== null ? `fd ${config.listenFd} (socket activation)` : `http://${config.host}:${config.port}`,
    external_host: config.externalHost,
    store: store.dialect,
    redis: config.redisUrl ? "on" : "off",
    restored_queues: restored,
  });
}

main().catch(logFatalAndExit);
