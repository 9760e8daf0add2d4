/**
 * Packages only some deployments or some requests need (the PostgreSQL driver, the Redis client,
 * KaTeX, the SMTP client) are loaded when first used rather than at start-up: each one loaded costs
 * the process several megabytes of code and heap for as long as it runs, and an idle server's
 * memory is a target of its own (issue 8, S9; docs/PERFORMANCE.md). They are CommonJS packages, so
 * a synchronous `require` keeps their callers synchronous.
 */
import { createRequire } from "node:module";

const requireFromHere = createRequire(import.meta.url);

/** A getter that requires `name` on its first call and returns the same module ever after. */
export function loadOnFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireFromHere(name) as T);
}
