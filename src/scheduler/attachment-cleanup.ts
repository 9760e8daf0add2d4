/**
 * The scheduled removal of uploads no message ever linked (issue 7, item 5; Zulip deletes
 * unclaimed attachments after a grace period). The grace period leaves time to finish writing the
 * message an upload was made for. Runs in batches, each in its own transaction, so one run never
 * holds a long lock.
 */
import { doDeleteUnclaimedAttachments } from "../actions/uploads/attachments.js";
import type { AppDeps } from "../deps.js";

export const DEFAULT_GRACE_HOURS = 72;
const BATCH_SIZE = 500;
const HOUR_MS = 60 * 60 * 1000;

/** Deletes every unlinked upload older than `graceHours`; returns how many were deleted. */
export async function deleteUnclaimedAttachments(deps: AppDeps, graceHours = DEFAULT_GRACE_HOURS): Promise<number> {
  const cutoff = deps.clock.now() - graceHours * 3600;
  let total = 0;
  for (;;) {
    const deleted = await doDeleteUnclaimedAttachments(deps, cutoff, BATCH_SIZE);
    total += deleted;
    if (deleted < BATCH_SIZE) return total;
  }
}

export interface CleanupTimerOptions {
  graceHours?: number;
  /** How often to run; hourly by default. */
  intervalMs?: number;
  /** Told about a failed run; the timer keeps going. */
  onError?: (err: unknown) => void;
}

/**
 * Runs the cleanup now and then every `intervalMs`, never two runs at once. The timer does not keep
 * the process alive. Returns a function that stops it.
 */
export function startUnclaimedAttachmentCleanup(deps: AppDeps, opts: CleanupTimerOptions = {}): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await deleteUnclaimedAttachments(deps, opts.graceHours);
    } catch (err) {
      opts.onError?.(err);
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(() => void run(), opts.intervalMs ?? HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
