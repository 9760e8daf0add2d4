/**
 * The cluster primary (WORKERS > 1): forks the workers, which share the port through Node's
 * cluster module, relays the event bus between them when there is no Redis, tells each where the
 * others take forwarded GET/DELETE /events (queue-forwarding.ts), and restarts a worker that dies.
 * It opens no store and serves no request: it stays small, and a bug in request code cannot take
 * it down.
 *
 * Start-up: worker 0 starts alone (migrations, the first-start organization), the others once it
 * is ready, so they never race on a schema change. A worker that exits before it was ever ready
 * stops the server (exit 1: its own log line said why, e.g. the store does not answer). After
 * that, a dead worker is forked again under the same index, so the queue ids naming it route to
 * its successor, which answers BAD_EVENT_QUEUE_ID: its clients register once more.
 */
import cluster, { type Worker } from "node:cluster";
import type { Config } from "../config.js";
import { logLine } from "../lib/log.js";
import { isParleyMessage, type PrimaryToWorker, type WorkerToPrimary } from "./messages.js";
import { WriteTurns } from "./write-gate.js";

/** A worker that keeps dying at once is forked again after a growing pause, up to this. */
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that lived this long is healthy again: its next death restarts it at once. */
const HEALTHY_AFTER_MS = 10_000;
/** How long a graceful stop waits for the workers before killing them. */
const STOP_TIMEOUT_MS = 30_000;

interface Slot {
  index: number;
  worker: Worker | null;
  ready: boolean;
  everReady: boolean;
  startedAt: number;
  restarts: number;
  forwardPort: number | null;
  /** Users with a message-taking queue in this worker (for workers that start later). */
  messageQueueUsers: Set<number>;
}

export function runPrimary(config: Config, relayEvents: boolean): void {
  const slots: Slot[] = Array.from({ length: config.workers }, (_, index) => ({
    index, worker: null, ready: false, everReady: false, startedAt: 0, restarts: 0, forwardPort: null, messageQueueUsers: new Set(),
  }));
  let stopping = false;
  // SQLite: one writer at a time across the workers (write-gate.ts).
  const turns = new WriteTurns();
  const announce = (turn: { worker: number; id: number } | null) => {
    if (turn) sendTo(slots[turn.worker], { parley: "write-turn", id: turn.id });
  };

  const live = () => slots.filter((s) => s.worker && s.ready);
  const sendTo = (slot: Slot, message: PrimaryToWorker) => {
    if (slot.worker?.isConnected()) slot.worker.send(message);
  };
  const broadcastOwners = () => {
    const ports: Record<number, number> = {};
    for (const s of live()) if (s.forwardPort !== null) ports[s.index] = s.forwardPort;
    for (const s of live()) sendTo(s, { parley: "owners", ports });
  };

  const fork = (slot: Slot) => {
    slot.ready = false;
    slot.forwardPort = null;
    slot.startedAt = Date.now();
    const worker = cluster.fork({ PARLEY_WORKER_INDEX: String(slot.index) });
    slot.worker = worker;
    worker.on("message", (message: unknown) => {
      if (isParleyMessage<WorkerToPrimary>(message)) onMessage(slot, message);
    });
    worker.on("exit", (code, signal) => onExit(slot, worker, code, signal));
  };

  const onMessage = (slot: Slot, message: WorkerToPrimary) => {
    switch (message.parley) {
      case "publish":
        // Every worker, the sender too: one order of events for all queues (ipc-bus.ts).
        if (relayEvents) for (const s of slots) if (s.worker) sendTo(s, { ...message, parley: "deliver" });
        return;
      case "flush":
        sendTo(slot, { parley: "flushed", token: message.token });
        return;
      case "write-turn":
        announce(turns.request(slot.index, message.id));
        return;
      case "write-done":
        announce(turns.done(slot.index, message.id));
        return;
      case "message-queue-users":
        for (const id of message.userIds) {
          if (message.present) slot.messageQueueUsers.add(id);
          else slot.messageQueueUsers.delete(id);
        }
        for (const s of live()) if (s !== slot) sendTo(s, { parley: "remote-message-queue-users", worker: slot.index, userIds: message.userIds, present: message.present });
        return;
      case "ready": {
        slot.ready = true;
        slot.everReady = true;
        slot.forwardPort = message.forwardPort;
        // What the others hold, for the newcomer; and the newcomer forgotten by the others (a restart).
        for (const s of live()) {
          if (s === slot) continue;
          sendTo(slot, { parley: "remote-message-queue-users", worker: s.index, userIds: [...s.messageQueueUsers], present: true, reset: true });
          sendTo(s, { parley: "remote-message-queue-users", worker: slot.index, userIds: [], present: true, reset: true });
        }
        broadcastOwners();
        if (slot.index === 0 && slots.some((s) => !s.worker)) for (const s of slots) if (!s.worker) fork(s);
        if (slots.every((s) => s.ready)) logLine("info", "ready", { workers: config.workers, address: `http://${config.host}:${config.port}`, events: relayEvents ? "through the primary" : "Redis" });
        return;
      }
    }
  };

  const onExit = (slot: Slot, worker: Worker, code: number | null, signal: string | null) => {
    if (slot.worker !== worker) return;
    const wasEverReady = slot.everReady;
    slot.worker = null;
    slot.ready = false;
    slot.messageQueueUsers.clear();
    announce(turns.drop(slot.index));
    for (const s of live()) sendTo(s, { parley: "remote-message-queue-users", worker: slot.index, userIds: [], present: false, reset: true });
    broadcastOwners();
    if (stopping) {
      if (slots.every((s) => !s.worker)) {
        logLine("info", "stopped", { workers: config.workers });
        process.exit(0);
      }
      return;
    }
    if (!wasEverReady) {
      // Start-up failed: the worker logged why. The others are stopped and the server exits 1.
      logLine("fatal", `worker ${slot.index} stopped during start-up (exit ${code ?? signal}); the server does not start`, { worker: slot.index });
      for (const s of slots) s.worker?.process.kill("SIGKILL");
      process.exit(1);
    }
    const healthy = Date.now() - slot.startedAt >= HEALTHY_AFTER_MS;
    slot.restarts = healthy ? 0 : slot.restarts + 1;
    const delay = slot.restarts === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 250 * 2 ** slot.restarts);
    logLine("error", `worker ${slot.index} died (exit ${code ?? signal}); starting it again${delay ? ` in ${delay} ms` : ""}; its event queues are lost and their clients register again`, {
      worker: slot.index, exit_code: code, signal, restart_delay_ms: delay,
    });
    setTimeout(() => {
      if (!stopping) fork(slot);
    }, delay);
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logLine("info", "shutting down", { signal, workers: config.workers });
    const running = slots.filter((s) => s.worker);
    if (running.length === 0) process.exit(0);
    // Each worker answers parked polls, drains, saves its queues and exits (main.ts shutdown);
    // the primary keeps relaying meanwhile, so their flushes come back.
    for (const s of running) s.worker?.process.kill("SIGTERM");
    setTimeout(() => {
      for (const s of slots) s.worker?.process.kill("SIGKILL");
      process.exit(1);
    }, STOP_TIMEOUT_MS).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  logLine("info", `starting ${config.workers} worker processes`, { workers: config.workers });
  fork(slots[0]);
}
