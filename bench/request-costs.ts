/**
 * What one request of each scenario costs, measured in ways the machine's load hardly moves:
 * `npx tsx bench/request-costs.ts [--store postgres] [--users 250] [--channels 20] [--history 20000]
 * [--iterations 200] [--warmup N] [--only S1,S3] [--sql] [--cpu-prof DIR] [--keep DIR] [--callgrind] [--concurrency N] [--no-checkpointer]`. Seeds an organisation (bench/lib/seed.ts), serves each
 * scenario's request in-process (buildApp + inject, no sockets) and reports per request: the SQL
 * statements it ran (counted from Kysely's query log, transaction control included), the CPU time
 * of this process (user + system, so GC and the driver count), and the wall-clock p50, p99 and
 * minimum. `--sql`
 * lists each request's statements with how often they ran; `--cpu-prof DIR` writes a V8 CPU
 * profile of each request's measured loop (seeding and warm-up left out) as DIR/<id>.cpuprofile,
 * for bench/profile-summary.ts. `--keep DIR` (SQLite) seeds into DIR once and starts later runs
 * of the same shape from a copy of it, which matters under valgrind (docs/PERFORMANCE.md has the
 * method and the figures). `--callgrind`, under `valgrind --tool=callgrind --instr-atstart=no`,
 * switches instruction counting on for the measured loops only: valgrind's "Collected" total
 * divided by the iterations is the instructions per request, a figure no other load can move.
 * `--concurrency N` keeps N requests in flight during the measured loop (issue 21 item 3: where a
 * send's p99 at ten clients comes from) and then also prints the slowest statements of the loop
 * (p50, p99 and max of each) and the event loop's longest stall.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { InjectOptions } from "fastify";
import { buildApp } from "../src/app.js";
import { openStore } from "../src/store/db.js";
import { migrateToLatest } from "../src/store/migrate.js";
import { quantile } from "./lib/http.js";
import { benchDeps } from "./lib/in-process.js";
import { formatInt } from "./lib/report.js";
import { costRequests, type CostRequest } from "./lib/cost-requests.js";
import { seedHistory, seedOrg, subscribeOrg, type BenchOrg, type OrgShape } from "./lib/seed.js";
import { createStore, type BenchStore } from "./lib/stores.js";

const HOST = "127.0.0.1:9991";

interface Cost {
  statements: number;
  /** PostgreSQL: the round trips that carried them (statements issued together share one). */
  roundTrips: number | null;
  cpuUs: number;
  p50Ms: number;
  p99Ms: number;
  /** The fastest request: the figure the machine's load disturbs least. */
  minMs: number;
  /** Statement → how often it ran and its milliseconds in all, on the counted pass. */
  sql: Map<string, { n: number; ms: number }>;
}

interface Logged {
  sql: string;
  ms: number;
}

/** Profiles what `fn` runs into `file` (V8's sampling profiler through the inspector). */
async function profiled<T>(file: string | null, fn: () => Promise<T>): Promise<T> {
  if (!file) return fn();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}

/**
 * Turns callgrind's instruction counting on or off for this process. callgrind reads the command
 * only while the program runs, so a timer keeps the event loop busy until callgrind_control ends.
 */
function callgrind(on: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const busy = setInterval(() => undefined, 1);
    const control = spawn("callgrind_control", ["--instr", on ? "on" : "off", String(process.pid)], { stdio: "ignore" });
    control.on("error", reject);
    control.on("exit", () => {
      clearInterval(busy);
      resolve();
    });
  });
}

/** Serves `req` `iterations` times after a warm-up; statements are counted on the last pass only. */
async function measure(
  app: Awaited<ReturnType<typeof buildApp>>,
  req: CostRequest,
  opts: { iterations: number; warmup: number; profile: string | null; callgrind: boolean; concurrency: number },
  log: { sql: Logged[] | null },
  roundTrips: () => number | null,
): Promise<Cost> {
  const { iterations } = opts;
  const inject = (): Promise<unknown> => app.inject({ ...req.inject, headers: { host: HOST, ...req.inject.headers } } as InjectOptions);
  for (let i = 0; i < opts.warmup; i++) await inject();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  if (opts.callgrind) await callgrind(true);
  const tail = opts.concurrency > 1 ? { sql: [] as Logged[], loop: monitorEventLoopDelay({ resolution: 1 }) } : null;
  if (tail) {
    log.sql = tail.sql;
    tail.loop.enable();
  }
  await profiled(opts.profile, async () => {
    let left = iterations;
    const worker = async () => {
      while (left-- > 0) {
        const start = performance.now();
        const res = (await inject()) as { statusCode: number; body: string };
        times.push(performance.now() - start);
        if (res.statusCode !== 200) throw new Error(`${req.id}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency }, worker));
  });
  if (tail) {
    tail.loop.disable();
    log.sql = null;
    printTail(tail.sql, tail.loop.max / 1e6);
  }
  if (opts.callgrind) await callgrind(false);
  const used = process.cpuUsage(cpu);
  log.sql = [];
  const tripsBefore = roundTrips();
  await inject();
  const tripsAfter = roundTrips();
  const statements = log.sql;
  log.sql = null;
  const sql = new Map<string, { n: number; ms: number }>();
  for (const s of statements) {
    const seen = sql.get(s.sql) ?? { n: 0, ms: 0 };
    sql.set(s.sql, { n: seen.n + 1, ms: seen.ms + s.ms });
  }
  times.sort((a, b) => a - b);
  const trips = tripsBefore === null || tripsAfter === null ? null : tripsAfter - tripsBefore;
  return { statements: statements.length, roundTrips: trips, cpuUs: (used.user + used.system) / iterations, p50Ms: quantile(times, 0.5), p99Ms: quantile(times, 0.99), minMs: times[0], sql };
}

/** The statements that took longest in all during a concurrent loop, and the longest loop stall. */
function printTail(statements: Logged[], stallMs: number): void {
  const byKind = new Map<string, number[]>();
  for (const s of statements) {
    const kind = s.sql.slice(0, 60);
    const list = byKind.get(kind) ?? [];
    list.push(s.ms);
    byKind.set(kind, list);
  }
  const rows = [...byKind].map(([kind, ms]) => ({ kind, ms: ms.sort((a, b) => a - b), sum: ms.reduce((a, b) => a + b, 0) }));
  rows.sort((a, b) => b.sum - a.sum);
  console.log(`    event loop's longest stall ${stallMs.toFixed(1)} ms; statements by time in all (n, p50, p99, max ms):`);
  for (const r of rows.slice(0, 6)) {
    console.log(`    ${String(r.ms.length).padStart(6)} × p50 ${quantile(r.ms, 0.5).toFixed(2)} p99 ${quantile(r.ms, 0.99).toFixed(2)} max ${r.ms[r.ms.length - 1].toFixed(2)}  ${r.kind}`);
  }
}

async function seed(url: string, shape: OrgShape, history: number): Promise<BenchOrg> {
  const store = openStore(url);
  try {
    const org = await seedOrg(store, shape, HOST);
    await seedHistory(store, org, history);
    await subscribeOrg(store, org, shape);
    return org;
  } finally {
    await store.close();
  }
}

/**
 * The seeded organisation in `bench` (a fresh store): from DIR's copy when `keep` names a DIR
 * seeded with the same shape, else seeded now (and copied into DIR when given). SQLite files
 * are copied once closed, when their WAL has been checkpointed into them.
 */
async function seeded(bench: BenchStore, shape: OrgShape, history: number, keep: string | undefined): Promise<BenchOrg> {
  if (!keep) return seed(bench.url, shape, history);
  if (bench.kind !== "sqlite") throw new Error("--keep works with SQLite only");
  const file = join(keep, `seed-${shape.users}-${shape.channels}-${history}.sqlite3`);
  const orgFile = `${file}.json`;
  if (existsSync(file) && existsSync(orgFile)) {
    copyFileSync(file, bench.name);
    // Migrations added since the copy was seeded.
    const store = openStore(bench.url);
    await migrateToLatest(store).finally(() => store.close());
    return JSON.parse(readFileSync(orgFile, "utf8")) as BenchOrg;
  }
  const org = await seed(bench.url, shape, history);
  mkdirSync(keep, { recursive: true });
  copyFileSync(bench.name, file);
  writeFileSync(orgFile, JSON.stringify(org));
  return org;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      store: { type: "string", default: "sqlite" },
      users: { type: "string", default: "250" },
      channels: { type: "string", default: "20" },
      history: { type: "string", default: "20000" },
      iterations: { type: "string", default: "200" },
      warmup: { type: "string" },
      only: { type: "string" },
      sql: { type: "boolean", default: false },
      "cpu-prof": { type: "string" },
      keep: { type: "string" },
      callgrind: { type: "boolean", default: false },
      concurrency: { type: "string", default: "1" },
      "no-checkpointer": { type: "boolean", default: false },
    },
  });
  if (values.store !== "sqlite" && values.store !== "postgres") throw new Error("--store must be sqlite or postgres");
  const shape: OrgShape = { users: Number(values.users), channels: Number(values.channels), subsPerUser: 4, pollers: Math.min(100, Number(values.users) - 30) };
  const dir = mkdtempSync(join(tmpdir(), "parley-costs-"));
  let bench: BenchStore | null = null;
  try {
    bench = await createStore(values.store, dir, "costs");
    const org = await seeded(bench, shape, Number(values.history), values.keep);

    const log: { sql: Logged[] | null } = { sql: null };
    // As the server opens it (main.ts): on SQLite, WAL checkpoints on a worker thread.
    const store = openStore(bench.url, {
      backgroundCheckpoints: !values["no-checkpointer"],
      log: (e) => {
        log.sql?.push({ sql: e.query.sql.replace(/\s+/g, " "), ms: e.queryDurationMillis });
      },
    });
    const app = await buildApp(benchDeps(store, HOST), { logger: false });
    const only = values.only ? new Set(values.only.split(",")) : null;
    console.log(`${values.store}, ${formatInt(shape.users)} users, ${shape.channels} channels, ${formatInt(Number(values.history))} messages; ${values.iterations} requests each\n`);
    console.log("request                              statements (round trips)  CPU µs/req  p50 ms  p99 ms  min ms");
    try {
      for (const req of await costRequests(app, org, HOST)) {
        if (only && !only.has(req.id)) continue;
        const profileDir = values["cpu-prof"];
        if (profileDir) mkdirSync(profileDir, { recursive: true });
        const profile = profileDir ? join(profileDir, `${req.id}.cpuprofile`) : null;
        const c = await measure(app, req, { iterations: Number(values.iterations), warmup: Number(values.warmup ?? Math.max(10, Number(values.iterations) / 10)), profile, callgrind: values.callgrind, concurrency: Number(values.concurrency) }, log, () => store.batchStats?.().roundTrips ?? null);
        console.log(`${`${req.id} ${req.label}`.padEnd(36)} ${String(c.statements).padStart(10)} ${(c.roundTrips === null ? "" : `(${c.roundTrips})`).padStart(13)}  ${c.cpuUs.toFixed(0).padStart(10)}  ${c.p50Ms.toFixed(2).padStart(6)}  ${c.p99Ms.toFixed(2).padStart(6)}  ${c.minMs.toFixed(2).padStart(6)}`);
        if (values.sql) for (const [s, { n, ms }] of c.sql) console.log(`    ${String(n).padStart(3)} × ${ms.toFixed(2).padStart(7)} ms  ${s.slice(0, 150)}`);
      }
    } finally {
      await app.close();
      await store.close();
    }
  } finally {
    await bench?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
