/**
 * One SQLite writer at a time across cluster workers, waited for without blocking anyone (issue 21:
 * "for SQLite, concurrent readers with one writer at a time"). SQLite lets one connection write at
 * a time; a worker whose BEGIN IMMEDIATE finds the lock taken waits in SQLite's busy handler,
 * which sleeps on the worker's only thread (1, 2, 5, 10… ms, up to busy_timeout): every request of
 * that worker, reads and long-polls included, stood still while another worker wrote, and the
 * sleeps' granularity wasted the lock's free time. Here each worker asks the primary for the
 * write turn before it begins a transaction and waits for the answer as any I/O is waited for;
 * the primary hands turns out first come, first served. BEGIN IMMEDIATE and the busy timeout stay
 * as the safety net for writers outside the cluster (`manage` commands).
 *
 * A turn is given back when the transaction ends, or by the primary when its worker dies. A turn
 * that takes longer than WAIT_MS to come is given up (503, as an unreachable store is); if it comes
 * later it is handed back at once.
 */
import { performance } from "node:perf_hooks";
import type { WriteGate } from "../store/db.js";
import { sendToPrimary, type IpcChannel } from "./ipc-bus.js";
import { isParleyMessage, type PrimaryToWorker } from "./messages.js";

/** Longer than any transaction should hold the lock; SQLite's own busy timeout is 5 s. */
const WAIT_MS = 30_000;

/** A wait that ran out: answered 503 like a store that does not answer (db.ts isStoreUnavailable). */
class WriteTurnTimeout extends Error {
  readonly code = "ETIMEDOUT";
  constructor(waitMs: number) {
    super(`no write turn within ${waitMs} ms`);
  }
}

/** The worker's side: `store.writeGate` of a cluster worker on SQLite. */
export class IpcWriteGate implements WriteGate {
  private nextId = 1;
  private readonly waiting = new Map<number, { grant: () => void; timer: NodeJS.Timeout; asked: number }>();

  /** `onWait`: seconds each turn took to come (GET /metrics); `waitMs`: how long a turn is waited for. */
  constructor(
    private readonly channel: IpcChannel,
    private readonly onWait: (seconds: number) => void = () => undefined,
    private readonly waitMs = WAIT_MS,
  ) {
    channel.on("message", (message) => {
      if (!isParleyMessage<PrimaryToWorker>(message) || message.parley !== "write-turn") return;
      const waiter = this.waiting.get(message.id);
      if (!waiter) {
        // Given up meanwhile: the turn goes straight back.
        sendToPrimary(this.channel, { parley: "write-done", id: message.id });
        return;
      }
      this.waiting.delete(message.id);
      clearTimeout(waiter.timer);
      this.onWait((performance.now() - waiter.asked) / 1000);
      waiter.grant();
    });
  }

  acquire(): Promise<() => void> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new WriteTurnTimeout(this.waitMs));
      }, this.waitMs);
      timer.unref();
      let done = false;
      const release = () => {
        if (done) return;
        done = true;
        sendToPrimary(this.channel, { parley: "write-done", id });
      };
      this.waiting.set(id, { grant: () => resolve(release), timer, asked: performance.now() });
      sendToPrimary(this.channel, { parley: "write-turn", id });
    });
  }
}

interface Turn {
  worker: number;
  id: number;
}

/**
 * The primary's side: who writes now and who waits, first come, first served. Each method returns
 * the turn to announce (to its worker), if any.
 */
export class WriteTurns {
  private holder: Turn | null = null;
  private readonly queue: Turn[] = [];

  request(worker: number, id: number): Turn | null {
    const turn = { worker, id };
    if (this.holder) {
      this.queue.push(turn);
      return null;
    }
    this.holder = turn;
    return turn;
  }

  /** A worker is done with its turn (anything else it says is ignored). */
  done(worker: number, id: number): Turn | null {
    if (this.holder?.worker !== worker || this.holder.id !== id) return null;
    return this.next();
  }

  /** A worker died: its turn and its waiting requests go. */
  drop(worker: number): Turn | null {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].worker === worker) this.queue.splice(i, 1);
    return this.holder?.worker === worker ? this.next() : null;
  }

  private next(): Turn | null {
    this.holder = this.queue.shift() ?? null;
    return this.holder;
  }
}
