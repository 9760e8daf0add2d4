/**
 * `npm run bench [-- --quick | --smoke] [--compiled] [--store postgres] [--cpu-prof DIR] [--only S1,S3]
 * [--results FILE]`: the benchmark suite of issues 8 and 21 (docs/PERFORMANCE.md). Seeds the organisation once, copies it into a big-history and a
 * small-history store, starts Parley on each (compiled, production settings) and B0, runs the
 * scenarios in an order where earlier ones cannot disturb later ones (writes and queue-creating
 * scenarios last), then prints the table and writes bench/results.json. Exit code 1 only when a
 * scenario could not run; missed targets are results, not errors. A watchdog ends a run that hangs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { freePort } from "../test/helpers/server-process.js";
import { openStore } from "../src/store/db.js";
import { startB0 } from "./lib/baselines.js";
import type { Context, Scenario, Target } from "./lib/context.js";
import { loadAverage } from "./lib/measure.js";
import { parseOptions, type Options, type ScenarioId } from "./lib/options.js";
import { parleyCommand, startParley, type ParleyCommand } from "./lib/parley.js";
import { idleMemory, ROOT, stopAll } from "./lib/processes.js";
import { formatInt, printTable, writeResults, type Row } from "./lib/report.js";
import { seedHistory, seedOrg, subscribeOrg, type BenchOrg } from "./lib/seed.js";
import { copyStore, createStore, postgresAvailable, type BenchStore } from "./lib/stores.js";
import { s1 } from "./scenarios/s1-users-me.js";
import { s2 } from "./scenarios/s2-send.js";
import { s3, s4 } from "./scenarios/s3-fetch.js";
import { s5 } from "./scenarios/s5-search.js";
import { s6AndS9 } from "./scenarios/s6-fanout.js";
import { s7 } from "./scenarios/s7-typing.js";
import { s8 } from "./scenarios/s8-register.js";
import { s10 } from "./scenarios/s10-multiprocess.js";
import { s11 } from "./scenarios/s11-first-load.js";
import { s12 } from "./scenarios/s12-channel-fanout.js";
import { s13 } from "./scenarios/s13-abuse.js";
import { s14 } from "./scenarios/s14-workers.js";
import { s15, s16 } from "./scenarios/s15-concurrent.js";

const RESULTS_PATH = join(ROOT, "bench", "results.json");
/** PostgreSQL statement time-out while seeding (src/store/db.ts StoreOptions.queryTimeoutMs). */
const SEED_QUERY_TIMEOUT_MS = 15 * 60_000;
/** s14: S14 starts a cluster and runs twelve load tests of at least 5 s, in quick runs too. */
const WATCHDOG_MINUTES = { full: 30, quick: 5, s14: 6 };

/** Run order, and which rows each step produces. */
const STEPS: Array<{ ids: ScenarioId[]; run: Scenario }> = [
  { ids: ["S1"], run: s1 },
  { ids: ["S3"], run: s3 },
  { ids: ["S4"], run: s4 },
  { ids: ["S5"], run: s5 },
  { ids: ["S16"], run: s16 },
  { ids: ["S2"], run: s2 },
  { ids: ["S15"], run: s15 },
  { ids: ["S7"], run: s7 },
  { ids: ["S6", "S9"], run: s6AndS9 },
  { ids: ["S8"], run: s8 },
  { ids: ["S11"], run: s11 },
  // Writes a linkifier and a message into "hundred": after the scenarios that read it.
  { ids: ["S13"], run: s13 },
  // Creates its own channels and queues, and fills them: late, so nothing before sees its load.
  { ids: ["S12"], run: s12 },
  // A cluster of WORKERS on the big store beside its one process: S1, S2 and S3 on both (sends).
  { ids: ["S14"], run: s14 },
  { ids: ["S10"], run: s10 },
];

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

interface Seeded {
  org: BenchOrg;
  big: BenchStore;
  small: BenchStore;
}

/** What the run leaves behind until cleanUp: its temporary directory and databases. */
const leftovers: { dir: string | null; stores: BenchStore[] } = { dir: null, stores: [] };

/** Stops every child and removes the run's stores and files (at the end, on Ctrl-C, on the watchdog). */
async function cleanUp(): Promise<void> {
  await stopAll();
  for (const s of leftovers.stores.splice(0)) await s.drop().catch((err) => console.error(`dropping ${s.name}:`, err));
  if (leftovers.dir) rmSync(leftovers.dir, { recursive: true, force: true });
}

/** The organisation once, then its copy; each gets its history and the later subscriptions. */
async function seed(opts: Options, dir: string): Promise<Seeded> {
  const { shape, bigHistory, smallHistory } = opts.sizes;
  let t = performance.now();
  const big = await createStore(opts.store, dir, "big");
  leftovers.stores.push(big);
  const orgStore = openStore(big.url);
  const org = await seedOrg(orgStore, shape, "127.0.0.1").finally(() => orgStore.close());
  console.log(`seeded ${formatInt(shape.users)} users and ${shape.channels} channels in ${seconds(t)} s`);
  const small = await copyStore(big, dir, "small");
  leftovers.stores.push(small);
  for (const [s, count] of [[big, bigHistory], [small, smallHistory]] as const) {
    t = performance.now();
    // A million messages' user_messages rows are one INSERT … SELECT: minutes on PostgreSQL here.
    const store = openStore(s.url, { queryTimeoutMs: SEED_QUERY_TIMEOUT_MS });
    try {
      await seedHistory(store, org, count);
      console.log(`seeded ${formatInt(count)} messages in ${seconds(t)} s`);
      await subscribeOrg(store, org, shape);
    } finally {
      await store.close();
    }
  }
  return { org, big, small };
}

async function startTarget(name: string, cmd: ParleyCommand, store: BenchStore, dir: string): Promise<Target> {
  return { store, parley: await startParley(name, cmd, await freePort(), { databaseUrl: store.url, varDir: join(dir, name) }) };
}

async function runSteps(ctx: Context): Promise<{ rows: Row[]; errors: number }> {
  const rows: Row[] = [];
  let errors = 0;
  for (const step of STEPS) {
    const wanted = step.ids.filter((id) => ctx.opts.only.has(id));
    if (wanted.length === 0) continue;
    const t = performance.now();
    try {
      // A scenario measured at several sizes names its rows "S12/200", "S12/1000".
      rows.push(...(await step.run(ctx)).filter((r) => wanted.includes(r.id.split("/")[0] as ScenarioId)));
    } catch (err) {
      errors++;
      console.error(`${wanted.join("+")} failed:`, err);
      for (const id of wanted) rows.push({ id, rps: null, p50: null, p99: null, baseline: "-", ratio: null, target: "-", pass: false, note: `error: ${String(err)}`, load: loadAverage() });
    }
    console.log(`${wanted.join("+")} done in ${seconds(t)} s (load average ${loadAverage().toFixed(1)})`);
  }
  return { rows, errors };
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const watchdog = setTimeout(() => {
    console.error("the benchmark ran past its time limit; stopping");
    void cleanUp().finally(() => process.exit(1));
  }, ((opts.quick ? WATCHDOG_MINUTES.quick : WATCHDOG_MINUTES.full) + (opts.only.has("S14") ? WATCHDOG_MINUTES.s14 : 0)) * 60_000);
  watchdog.unref();
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-"));
  leftovers.dir = dir;
  console.log(`Parley benchmark: ${opts.mode} run on ${opts.store}, ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  try {
    if (opts.store === "postgres" && !(await postgresAvailable())) throw new Error("--store postgres: PostgreSQL does not answer (TEST_DATABASE_URL)");
    let t = performance.now();
    const cmd = parleyCommand(opts.compiled, opts.cpuProfDir);
    console.log(`Parley runs from the ${cmd.how} (ready in ${seconds(t)} s)`);
    const seeded = await seed(opts, dir);
    t = performance.now();
    const [b0, big, small] = await Promise.all([startB0(), startTarget("parley-big", cmd, seeded.big, dir), startTarget("parley-small", cmd, seeded.small, dir)]);
    console.log(`processes up in ${seconds(t)} s`);
    const idle = await idleMemory(big.parley.pid, opts.sizes.idleMemoryMs);
    const ctx: Context = { opts, dir, cmd, org: seeded.org, big, small, b0, idleMemory: idle, track: (s) => leftovers.stores.push(s) };
    const { rows, errors } = await runSteps(ctx);
    printTable(rows);
    const resultsPath = opts.resultsPath ?? RESULTS_PATH;
    writeResults(rows, resultsPath);
    console.log(`\nwrote ${resultsPath}; ${seconds(started)} s in all, load average now ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    return errors > 0 ? 1 : 0;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}

process.once("SIGINT", () => void cleanUp().finally(() => process.exit(130)));
main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    void cleanUp().finally(() => process.exit(1));
  },
);
