/**
 * The process's own log lines (start-up, shutdown, store and event-bus trouble), in the same JSON
 * shape as the HTTP layer's pino lines (`level`, `time`, `pid`, `hostname`, `msg`), one line each,
 * so a log collector reads one format (issue 18, item 7). Request lines come from Fastify's pino.
 */
import { hostname } from "node:os";

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal";

/** pino's numeric levels, so both sources of lines filter and sort alike. */
const LEVELS: Record<LogLevel | "silent", number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

const HOST = hostname();

/** The one piece of mutable state here: the threshold, set once from LOG_LEVEL by `setLogLevel`. */
let threshold = LEVELS.info;

/** Lines below `level` (a LOG_LEVEL value) are dropped; unknown names keep `info`. */
export function setLogLevel(level: string): void {
  threshold = LEVELS[level as LogLevel] ?? LEVELS.info;
}

/** An error as log fields: type, message, code and the stack as one escaped string. */
export function errorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const code = (err as { code?: unknown }).code;
  return { type: err.name, message: err.message, ...(code !== undefined ? { code } : {}), stack: err.stack };
}

/** Writes one JSON line to stdout (where pino writes too). */
export function logLine(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < threshold) return;
  const line = { level: LEVELS[level], time: Date.now(), pid: process.pid, hostname: HOST, ...fields, msg };
  process.stdout.write(JSON.stringify(line) + "\n");
}
