/**
 * SQLite WAL checkpoints on a worker thread, off the request path (issue 8, S2's p99). A message to
 * 100 subscribers appends about 230 pages to the WAL (its user_messages rows land in 100 places of
 * two user-first B-trees); with SQLite's automatic checkpoint every 1,000 pages, every fourth or
 * fifth send paid a 5–10 ms checkpoint inside its commit, on the one thread that serves every
 * request. Here a second connection, on its own thread, runs a PASSIVE checkpoint every
 * CHECKPOINT_INTERVAL_MS: it copies committed pages into the database file while the server keeps
 * reading and writing (WAL readers and writers do not wait for a checkpointer). The server's own
 * connection keeps an automatic checkpoint only as a safety net, at FALLBACK_AUTOCHECKPOINT_PAGES,
 * in case the worker ever falls behind. The server opts in (main.ts); tools and tests do not.
 *
 * A worker thread is a V8 isolate of its own (about 7 MB of RSS), so it runs only while there is
 * something to copy: the store wakes it after each committed transaction, and it exits on its own
 * after IDLE_CHECKS checkpoints that found nothing new. An idle server holds no worker.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { errorFields, logLine } from "../lib/log.js";

/**
 * Short enough that the WAL never nears the fallback between two checkpoints. At 200 ms, sends to
 * 100 subscribers one after another (~45 per 200 ms, ~230 pages each) grew it by ~9,000 pages per
 * interval, and a checkpoint that overlapped new commits could not restart it: every ~2 s it
 * crossed FALLBACK_AUTOCHECKPOINT_PAGES and a commit on the request thread copied ~10,000 pages
 * (20–38 ms). Measured over HTTP, one send at a time on the 1M-message store, 2,000 sends, two
 * runs each: p99 28 / 29 ms at 200 ms, 19 / 18 ms at 50 ms; throughput at 4 connections within
 * the runs' spread (190–202 vs 199–203 sends/s). A check with nothing new to copy costs
 * microseconds and no I/O (docs/PERFORMANCE.md, session 10).
 */
const CHECKPOINT_INTERVAL_MS = 50;
/** A minute of checkpoints with nothing to copy, at the interval above. */
const IDLE_CHECKS = 60_000 / CHECKPOINT_INTERVAL_MS;
/** 40 MB of WAL at 4 KiB pages: far above what the worker lets accumulate. */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

/**
 * The worker's whole program (a CommonJS script: `eval` workers take source text). It exits after
 * a last checkpoint when told to stop; a failing checkpoint is reported and retried next time.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma("busy_timeout = 5000");
let last = "";
let idle = 0;
const stop = () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
};
const checkpoint = () => {
  try {
    const state = JSON.stringify(db.pragma("wal_checkpoint(PASSIVE)"));
    idle = state === last ? idle + 1 : 0;
    last = state;
  } catch (err) {
    parentPort.postMessage({ error: String(err) });
  }
};
const timer = setInterval(() => {
  checkpoint();
  if (idle >= workerData.idleChecks) stop();
}, workerData.intervalMs);
parentPort.on("message", () => {
  checkpoint();
  stop();
});
`;

export class Checkpointer {
  private worker: Worker | null = null;
  private exited: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly intervalMs = CHECKPOINT_INTERVAL_MS,
    private readonly idleChecks = IDLE_CHECKS,
  ) {}

  /** Whether a worker is running now. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** After a commit: makes sure a worker is there to copy it. */
  wake(): void {
    if (this.worker || this.closed) return;
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path: this.path, driver, intervalMs: this.intervalMs, idleChecks: this.idleChecks } });
    worker.on("message", (m: { error?: string }) => {
      if (m.error) logLine("error", "sqlite checkpoint failed", { error: m.error });
    });
    worker.on("error", (err) => logLine("error", "sqlite checkpointer stopped", { err: errorFields(err) }));
    // A worker that has nothing left to do must not keep the process alive; close() waits for it.
    worker.unref();
    this.exited = new Promise<void>((resolve) =>
      worker.once("exit", () => {
        if (this.worker === worker) this.worker = null;
        resolve();
      }),
    );
    this.worker = worker;
  }

  /** Stops the worker after a last checkpoint; resolves when its connection is closed. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    worker.ref();
    worker.postMessage("close");
    await this.exited;
  }
}
