/**
 * Fastify gives every request its own logger, a pino child bound to the request id: building one
 * (bindings serialised, redaction set up) costs a few µs per request, and at LOG_LEVEL=warn almost
 * no request ever writes a line (issue 21: the request's cost near the framework's floor). This
 * child is built on the first line the request actually writes, with the same bindings, so log
 * output is unchanged; a call at a level the logger does not write costs one level check.
 */
import type { FastifyBaseLogger } from "fastify";
import type { ChildLoggerOptions } from "fastify/types/logger.js";

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
type Bindings = Record<string, unknown>;

interface PinoLike extends FastifyBaseLogger {
  isLevelEnabled?(level: string): boolean;
}

export class LazyRequestLogger {
  private built: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: PinoLike,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The real child, made once. */
  private real(): FastifyBaseLogger {
    return (this.built ??= this.parent.child(this.bindings, this.options));
  }

  private write(level: Level, args: unknown[]): void {
    if (this.parent.isLevelEnabled && !this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.built ?? this.parent).level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.parent.isLevelEnabled ? this.parent.isLevelEnabled(level) : true;
  }

  fatal(...args: unknown[]): void {
    this.write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.write("error", args);
  }
  warn(...args: unknown[]): void {
    this.write("warn", args);
  }
  info(...args: unknown[]): void {
    this.write("info", args);
  }
  debug(...args: unknown[]): void {
    this.write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.write("trace", args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a request's logger, built when first written to. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(logger as PinoLike, bindings, options) as unknown as FastifyBaseLogger;
}
