/** What every scenario gets: the options, the seeded organisation, the running processes and stores. */
import { basicAuth } from "./http.js";
import type { Options } from "./options.js";
import type { ParleyCommand } from "./parley.js";
import type { Child, Memory } from "./processes.js";
import type { Row } from "./report.js";
import type { BenchOrg, BenchUser } from "./seed.js";
import type { BenchStore } from "./stores.js";

export interface Target {
  store: BenchStore;
  parley: Child;
}

export interface Context {
  opts: Options;
  /** The run's temporary directory (SQLite files, var dirs). */
  dir: string;
  /** How Parley processes are started (built once per run). */
  cmd: ParleyCommand;
  org: BenchOrg;
  /** The store with the big history (1M messages) and the Parley serving it. */
  big: Target;
  /** The same organisation with the small history (10k messages), for S4. */
  small: Target;
  b0: Child;
  /** Registers a store the run must drop even if it is interrupted. */
  track(store: BenchStore): void;
  /** The big store's Parley left idle after start-up (S9). */
  idleMemory: Memory & { idleMs: number };
}

/** Connections for the store-bound scenarios (S2, S3, S5, S8): enough to keep one process busy. */
export const DB_CONNECTIONS = 4;
/** Connections for the pipeline scenarios measured against B0 (S1, S7). */
export const PIPELINE_CONNECTIONS = 50;

export const authHeaders = (u: BenchUser) => ({ authorization: basicAuth(u) });

/** The Host a Parley process on `port` serves the root realm on (its EXTERNAL_HOST). */
export const hostOf = (port: number) => `127.0.0.1:${port}`;

export type Scenario = (ctx: Context) => Promise<Row[]>;
