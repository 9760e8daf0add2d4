/**
 * Knobs of the fuzz suite, from the environment (set by `npm run fuzz`, see ./run.ts):
 * FUZZ_RUNS requests per endpoint (200 in CI), FUZZ_SEED the base seed (random by default and
 * printed, so any run can be replayed), FUZZ_ENDPOINT to fuzz only endpoints whose "METHOD /path"
 * contains it, FUZZ_TIMEOUT_MS the per-request limit past which a request counts as hung.
 */
import type { AnyEndpoint } from "../../src/http/endpoint.js";

export interface FuzzSettings {
  runs: number;
  seed: number;
  endpointFilter: string | undefined;
  timeoutMs: number;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, not ${raw}`);
  return n;
}

export function fuzzSettings(): FuzzSettings {
  return {
    runs: positiveInt("FUZZ_RUNS", 200),
    seed: positiveInt("FUZZ_SEED", Date.now() % 2 ** 31),
    endpointFilter: process.env.FUZZ_ENDPOINT || undefined,
    timeoutMs: positiveInt("FUZZ_TIMEOUT_MS", 10_000),
  };
}

export const endpointLabel = (ep: AnyEndpoint) => `${ep.method} ${ep.path}`;

/** The endpoint's own seed: the same base seed replays the same requests for it on every store. */
export function endpointSeed(base: number, ep: AnyEndpoint): number {
  let h = base | 0;
  for (const ch of endpointLabel(ep)) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}
