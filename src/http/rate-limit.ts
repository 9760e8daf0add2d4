/**
 * The HTTP face of rate limiting (lib/rate-limiter.ts): Zulip's X-RateLimit-* headers and the
 * 429 RATE_LIMIT_HIT answer.
 */
import { rateLimited } from "../errors.js";
import { checkRate, type RateCounter, type RateDecision, type Rule } from "../lib/rate-limiter.js";

/** Zulip's rate-limit headers, on limited and refused responses alike. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return { "X-RateLimit-Limit": String(d.limit), "X-RateLimit-Remaining": String(d.remaining), "X-RateLimit-Reset": String(d.reset) };
}

/** Throws RATE_LIMIT_HIT (429) when refused; otherwise returns the headers to send. */
export async function enforceRate(counter: RateCounter, key: string, rules: Rule[], now: number): Promise<Record<string, string>> {
  const d = await checkRate(counter, key, rules, now);
  if (!d.allowed) {
    const err = rateLimited(d.retryAfter);
    Object.assign(err.headers, rateLimitHeaders(d));
    throw err;
  }
  return rateLimitHeaders(d);
}
