/**
 * The sending side of typing notifications, spec section 4.1's client protocol: POST /typing
 * op=start when composing begins; while the user keeps typing, start again every
 * server_typing_started_wait_period_milliseconds; op=stop after
 * server_typing_stopped_wait_period_milliseconds without input, when the message is sent or
 * the draft cleared, or when the recipient changes (then a start for the new one follows).
 */
import type { TypingPeriods } from "./client-state";

export type TypingTarget = { type: "stream"; streamId: number; topic: string } | { type: "direct"; to: number[] };

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const browserTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type TypingSender = (op: "start" | "stop", target: TypingTarget) => void;

function targetKey(target: TypingTarget): string {
  return target.type === "stream" ? `stream:${target.streamId}:${target.topic}` : `direct:${[...target.to].sort((a, b) => a - b).join(",")}`;
}

export class TypingNotifier {
  private current: { target: TypingTarget; key: string; lastStartAt: number } | null = null;
  private stopTimer: unknown = null;

  constructor(
    private readonly send: TypingSender,
    private readonly periods: () => TypingPeriods,
    private readonly timers: Timers = browserTimers,
  ) {}

  /** The user typed in compose, addressed to `target` (null: no valid recipient yet). */
  onInput(target: TypingTarget | null): void {
    if (target === null) return this.stop();
    const key = targetKey(target);
    if (this.current && this.current.key !== key) this.stop();
    const now = this.timers.now();
    if (!this.current) {
      this.current = { target, key, lastStartAt: now };
      this.send("start", target);
    } else if (now - this.current.lastStartAt >= this.periods().startedWaitMs) {
      this.current.lastStartAt = now;
      this.send("start", target);
    }
    if (this.stopTimer !== null) this.timers.clearTimeout(this.stopTimer);
    this.stopTimer = this.timers.setTimeout(() => this.stop(), this.periods().stoppedWaitMs);
  }

  /** Composing ended (sent, cleared, idle, recipient changed): op=stop if a start was sent. */
  stop(): void {
    if (this.stopTimer !== null) this.timers.clearTimeout(this.stopTimer);
    this.stopTimer = null;
    const current = this.current;
    this.current = null;
    if (current) this.send("stop", current.target);
  }
}
