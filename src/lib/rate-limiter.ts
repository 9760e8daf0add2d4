/**
 * Rate limiting with Zulip's default rules (zulip-facts section c), as fixed windows per rule:
 * a request is allowed while every rule of its kind has budget left in its current window.
 * Counters live in memory for one process, or in Redis so that several processes share them.
 * Used by the HTTP layer (per user and per address, http/rate-limit.ts) and by actions (failed
 * logins, actions/auth/auth.ts), so it lives below both.
 */
import type { Redis } from "ioredis";
import type { Config } from "../config.js";
import { serviceUnavailable } from "../errors.js";
import { newRedisClient, redisNamespace } from "./redis-keys.js";

export interface Rule {
  windowSeconds: number;
  max: number;
}

/** Zulip's DEFAULT_RATE_LIMITING_RULES for the domains Parley enforces. */
export const RATE_LIMIT_RULES: Record<"api_by_user" | "api_by_ip" | "authenticate_by_username", Rule[]> = {
  api_by_user: [
    { windowSeconds: 60, max: 200 },
    { windowSeconds: 3600, max: 2000 },
  ],
  api_by_ip: [{ windowSeconds: 60, max: 100 }],
  authenticate_by_username: [{ windowSeconds: 1800, max: 5 }],
};

export interface RateDecision {
  allowed: boolean;
  /** The tightest rule's limit and what remains of it after this request. */
  limit: number;
  remaining: number;
  /** Unix seconds when the tightest window resets. */
  reset: number;
  /** Seconds until a request would be allowed again (only when refused). */
  retryAfter: number;
}

export interface RateCounter {
  /** Adds one hit per rule for `key` (when `count`), returning each window's count and reset. */
  hit(key: string, rules: Rule[], now: number, count: boolean): Promise<Array<{ count: number; reset: number }>>;
  /** Takes back one hit of the current windows (a reserved attempt that turned out not to count). */
  release(key: string, rules: Rule[], now: number): Promise<void>;
  /** Resolves once the counters can be reached (start-up waits for it); rejects after `timeoutMs`. */
  ready?(timeoutMs: number): Promise<void>;
}

export class MemoryRateCounter implements RateCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  async hit(key: string, rules: Rule[], now: number, count: boolean) {
    return rules.map((rule) => {
      const start = now - (now % rule.windowSeconds);
      const id = `${key}:${rule.windowSeconds}`;
      let w = this.windows.get(id);
      if (!w || w.start !== start) {
        w = { start, count: 0 };
        this.windows.set(id, w);
      }
      if (count) w.count++;
      return { count: w.count, reset: start + rule.windowSeconds };
    });
  }

  async release(key: string, rules: Rule[], now: number): Promise<void> {
    for (const rule of rules) {
      const w = this.windows.get(`${key}:${rule.windowSeconds}`);
      if (w && w.start === now - (now % rule.windowSeconds) && w.count > 0) w.count--;
    }
  }

  /** Drops windows that have ended (called periodically so memory stays bounded). */
  sweep(now: number): void {
    for (const [id, w] of this.windows) {
      const windowSeconds = Number(id.slice(id.lastIndexOf(":") + 1));
      if (w.start + windowSeconds <= now) this.windows.delete(id);
    }
  }
}

export class RedisRateCounter implements RateCounter {
  /** `namespace` is the deployment's Redis prefix, so deployments sharing a Redis count apart. */
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {}

  ready(timeoutMs: number): Promise<void> {
    if (this.redis.status === "ready") return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      this.redis.once("ready", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async hit(key: string, rules: Rule[], now: number, count: boolean) {
    const pipeline = this.redis.pipeline();
    const resets: number[] = [];
    for (const rule of rules) {
      const start = now - (now % rule.windowSeconds);
      const id = `${this.namespace}rl:${key}:${rule.windowSeconds}:${start}`;
      if (count) pipeline.incr(id).expire(id, rule.windowSeconds + 5);
      else pipeline.get(id);
      resets.push(start + rule.windowSeconds);
    }
    const results = await execOrUnavailable(pipeline);
    const values = count ? results.filter((_, i) => i % 2 === 0) : results;
    return values.map(([, value], i) => ({ count: Number(value ?? 0), reset: resets[i] }));
  }

  async release(key: string, rules: Rule[], now: number): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const rule of rules) {
      const start = now - (now % rule.windowSeconds);
      // Only a window that still exists: a DECR of an expired one would leave -1 with no expiry.
      pipeline.eval(RELEASE_SCRIPT, 1, `${this.namespace}rl:${key}:${rule.windowSeconds}:${start}`);
    }
    await execOrUnavailable(pipeline);
  }
}

/**
 * Runs a pipeline; a failed command (Redis away) is a 503, not a zero count: a limiter that stops
 * counting would let through exactly the floods it exists for, and a command waiting for a
 * reconnection would hang the request (issue 18, item 4).
 */
async function execOrUnavailable(pipeline: ReturnType<Redis["pipeline"]>): Promise<Array<[Error | null, unknown]>> {
  let results: Array<[Error | null, unknown]>;
  try {
    results = (await pipeline.exec()) ?? [];
  } catch (err) {
    throw serviceUnavailable("Redis", `rate limits cannot be counted: ${(err as Error).message}`);
  }
  const failed = results.find(([err]) => err);
  if (failed) throw serviceUnavailable("Redis", `rate limits cannot be counted: ${(failed[0] as Error).message}`);
  return results;
}

const RELEASE_SCRIPT = "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0";

/** Evaluates the rules for `key`, counting this request. */
export async function checkRate(counter: RateCounter, key: string, rules: Rule[], now: number, count = true): Promise<RateDecision> {
  const windows = await counter.hit(key, rules, now, count);
  let decision: RateDecision = { allowed: true, limit: rules[0].max, remaining: rules[0].max, reset: windows[0].reset, retryAfter: 0 };
  windows.forEach((w, i) => {
    const remaining = Math.max(0, rules[i].max - w.count);
    // Counting requests: the (max+1)th is refused. Peeking (failures counted later): refuse at max.
    if (count ? w.count > rules[i].max : w.count >= rules[i].max) {
      decision = { allowed: false, limit: rules[i].max, remaining: 0, reset: w.reset, retryAfter: Math.max(1, w.reset - now) };
    } else if (decision.allowed && remaining < decision.remaining) {
      decision = { ...decision, limit: rules[i].max, remaining, reset: w.reset };
    }
  });
  return decision;
}

/**
 * Takes one attempt from the budget before the work it limits, so that concurrent attempts cannot
 * all pass a check made before any of them is counted (issue 16, F9: 40 parallel logins with
 * wrong passwords were all checked). Returns the decision; a refused attempt holds nothing.
 */
export async function reserveAttempt(counter: RateCounter, key: string, rules: Rule[], now: number): Promise<RateDecision> {
  const decision = await checkRate(counter, key, rules, now, true);
  if (!decision.allowed) await counter.release(key, rules, now);
  return decision;
}

/** The counter for this deployment, or null when RATE_LIMITING=off. */
/** Fails fast while Redis is away (no offline queue, no retries); errors go to the requests, not stderr. */
function redisCounterClient(url: string): Redis {
  const client = newRedisClient(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 2_000 });
  client.on("error", () => undefined);
  return client;
}

export function createRateCounter(config: Config, deploymentId: string): RateCounter | null {
  if (!config.rateLimiting) return null;
  return config.redisUrl
    ? new RedisRateCounter(redisCounterClient(config.redisUrl), redisNamespace(deploymentId))
    : new MemoryRateCounter();
}
