/** A cluster worker's end of the IPC channel (src/cluster/), for tests: what it sent, and a way to answer as the primary. */
import { EventEmitter } from "node:events";
import type { PrimaryToWorker, WorkerToPrimary } from "../../src/cluster/messages.js";

export class FakeChannel extends EventEmitter {
  connected = true;
  readonly sent: WorkerToPrimary[] = [];
  send(message: WorkerToPrimary): boolean {
    this.sent.push(message);
    return true;
  }
  fromPrimary(message: PrimaryToWorker): void {
    this.emit("message", message);
  }
}
