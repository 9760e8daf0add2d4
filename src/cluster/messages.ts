/**
 * What the cluster primary and its workers say to each other over Node's IPC channel (one JSON
 * message per line, in order per channel). Every message carries `parley` so that anything else
 * on the channel (Node's own cluster messages) is left alone.
 */
import type { ChatEvent } from "../events/bus.js";

export type WorkerToPrimary =
  /** An event committed in this worker, for every worker's queues (the sender's included). */
  | { parley: "publish"; event: ChatEvent; userIds: readonly number[]; publishedAt: number }
  /** Answered with `flushed` once everything this worker published before it came back. */
  | { parley: "flush"; token: string }
  /** Listening on the port; forwarded GET/DELETE /events reach it on 127.0.0.1:`forwardPort`. */
  | { parley: "ready"; forwardPort: number }
  /** Users whose first queue taking message events appeared here (present) or whose last went. */
  | { parley: "message-queue-users"; userIds: number[]; present: boolean }
  /** SQLite: this worker asks for the write turn (`write-turn` back) and gives it back (write-gate.ts). */
  | { parley: "write-turn"; id: number }
  | { parley: "write-done"; id: number };

export type PrimaryToWorker =
  | { parley: "deliver"; event: ChatEvent; userIds: readonly number[]; publishedAt: number }
  | { parley: "flushed"; token: string }
  /** Where each live worker takes forwarded requests (worker index → port); sent on every change. */
  | { parley: "owners"; ports: Record<number, number> }
  /** Another worker's users with message queues changed; `reset` first forgets what it had. */
  | { parley: "remote-message-queue-users"; worker: number; userIds: number[]; present: boolean; reset?: boolean }
  /** SQLite: the write turn this worker asked for is its own now. */
  | { parley: "write-turn"; id: number };

export function isParleyMessage<T extends { parley: string }>(value: unknown): value is T {
  return typeof value === "object" && value !== null && typeof (value as { parley?: unknown }).parley === "string";
}
