/**
 * Command line and sizes. `npm run bench` is the full run (issue 8's sizes: 5,000 users, 500
 * channels, 1M vs 10k messages, 2,000 pollers, 10 s per load test); `--quick` exercises every
 * scenario on small stores with short load tests (well under a minute); `--smoke` is the same on
 * tinier stores without warm-ups, for the CI test that only checks the plumbing;
 * `--compiled` makes quick and smoke runs use the compiled build too (for profiles that match a full run);
 * `--store postgres` runs on PostgreSQL; `--cpu-prof DIR` makes each Parley process write a V8 CPU
 * profile there; `--only S2,S6` runs some scenarios (the seeding they need is always done);
 * `--results FILE` writes the results elsewhere than bench/results.json (the CI smoke test does).
 */
import { parseArgs } from "node:util";
import type { OrgShape } from "./seed.js";
import type { StoreKind } from "./stores.js";

export interface Sizes {
  shape: OrgShape;
  bigHistory: number;
  smallHistory: number;
  /** Seconds per load test, after warmupSeconds of warm-up. */
  seconds: number;
  warmupSeconds: number;
  /** Sequential requests per store in S4. */
  s4Rounds: number;
  /** Delivery rounds in S6 and S10 (and Bpoll). */
  deliveryRounds: number;
  /**
   * Before each fan-out send, the servers must have used no CPU for this long: they have taken in
   * and parked every poll (bench/lib/processes.ts waitForIdle).
   */
  quietMs: number;
  /** Longest wait for an idle Parley's memory to settle (S9). */
  idleMemoryMs: number;
  /** Cold loads of the web client, one after another (S11). */
  firstLoadRounds: number;
}

const FULL: Sizes = {
  shape: { users: 5000, channels: 500, subsPerUser: 10, pollers: 2000 },
  bigHistory: 1_000_000,
  smallHistory: 10_000,
  seconds: 10,
  warmupSeconds: 2,
  s4Rounds: 300,
  deliveryRounds: 5,
  quietMs: 300,
  idleMemoryMs: 60_000,
  firstLoadRounds: 20,
};

const QUICK: Sizes = {
  shape: { users: 250, channels: 20, subsPerUser: 4, pollers: 100 },
  bigHistory: 20_000,
  smallHistory: 2_000,
  seconds: 1,
  warmupSeconds: 0.5,
  s4Rounds: 20,
  deliveryRounds: 1,
  quietMs: 200,
  idleMemoryMs: 3_000,
  firstLoadRounds: 5,
};

const SMOKE: Sizes = {
  shape: { users: 150, channels: 8, subsPerUser: 3, pollers: 40 },
  bigHistory: 3_000,
  smallHistory: 500,
  // autocannon runs for at least about a second whatever it is given.
  seconds: 0.5,
  warmupSeconds: 0,
  s4Rounds: 10,
  deliveryRounds: 1,
  quietMs: 150,
  idleMemoryMs: 1_000,
  firstLoadRounds: 2,
};

export const SCENARIOS = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "S11", "S12", "S13", "S14", "S15", "S16"] as const;
export type ScenarioId = (typeof SCENARIOS)[number];

export interface Options {
  mode: "full" | "quick" | "smoke";
  /** --quick or --smoke: short load tests on small stores. */
  quick: boolean;
  /** Parley runs from the compiled build (full runs, or --compiled); otherwise its sources through tsx. */
  compiled: boolean;
  store: StoreKind;
  cpuProfDir: string | null;
  only: Set<ScenarioId>;
  sizes: Sizes;
  resultsPath: string | null;
}

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      smoke: { type: "boolean", default: false },
      compiled: { type: "boolean", default: false },
      store: { type: "string", default: "sqlite" },
      "cpu-prof": { type: "string" },
      only: { type: "string" },
      results: { type: "string" },
    },
  });
  if (values.store !== "sqlite" && values.store !== "postgres") throw new Error(`--store must be sqlite or postgres, not ${values.store}`);
  const only = values.only ? values.only.split(",").map((s) => s.trim().toUpperCase()) : [...SCENARIOS];
  for (const id of only) if (!(SCENARIOS as readonly string[]).includes(id)) throw new Error(`--only: unknown scenario ${id}`);
  return {
    mode: values.smoke ? "smoke" : values.quick ? "quick" : "full",
    quick: Boolean(values.quick || values.smoke),
    compiled: values.compiled || !(values.quick || values.smoke),
    store: values.store,
    cpuProfDir: values["cpu-prof"] ?? null,
    only: new Set(only as ScenarioId[]),
    sizes: values.smoke ? SMOKE : values.quick ? QUICK : FULL,
    resultsPath: values.results ?? null,
  };
}
