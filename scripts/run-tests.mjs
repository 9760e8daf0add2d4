#!/usr/bin/env node
// Runs every test file under test/ with node's built-in runner (node 20 has no --test globbing).
// Extra arguments are passed through, e.g. `npm test -- test/api/auth.test.ts` runs one file.
// Each test process reports what it held to Zulip's API contract into one directory
// (PARLEY_CONTRACT_STATS); the contract summary test runs after the others and sums it up.
//
// Two test files run at a time, so the run lasts as long as its tail: files start longest first,
// by the wall times in scripts/test-timings.json (a file not listed there counts as UNKNOWN_SECONDS).
// `PARLEY_RECORD_TIMINGS=1 npm test` rewrites that file with the times of the run; every run prints
// its ten slowest files, and `PARLEY_TEST_TIMINGS=<file>` keeps each file's time as JSON lines.
//
// Test databases on PostgreSQL are not dropped by the test processes (test/helpers/stores.ts: a
// DROP DATABASE makes PostgreSQL checkpoint and wait for it); they queue them in
// PARLEY_TEST_DROP_QUEUE, and this script drops them in batches while the run goes on, and the rest
// at its end.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SUMMARY = join("test", "contract", "contract-summary.test.ts");
const DRIVER = fileURLToPath(new URL("test-driver.mjs", import.meta.url));
const TIMINGS_FILE = fileURLToPath(new URL("test-timings.json", import.meta.url));
/** Where a new file, not yet timed, starts: after the few long files, before the many short ones. */
const UNKNOWN_SECONDS = 30;

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

function knownTimings() {
  try {
    return JSON.parse(readFileSync(TIMINGS_FILE, "utf8"));
  } catch {
    return {};
  }
}

/** Longest first (test-driver.mjs starts files in the order given), ties by name. */
function longestFirst(files) {
  const known = knownTimings();
  const seconds = (f) => known[join(f)] ?? UNKNOWN_SECONDS;
  return [...files].sort((a, b) => seconds(b) - seconds(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Runs `files` in this order (test-driver.mjs); the wall time of each file goes, one JSON line each, to `timingsFile`. */
function run(files, env, timingsFile) {
  if (files.length === 0) return Promise.resolve(0);
  const child = spawn(process.execPath, ["--import", "tsx", DRIVER, timingsFile, ...files], { stdio: "inherit", env });
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

function readTimings(timingsFile) {
  if (!existsSync(timingsFile)) return [];
  return readFileSync(timingsFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Drops the databases the test processes queued (lines "<server url>\t<database>") since the last call. */
function databaseDropper(queueFile) {
  let done = 0;
  let running = Promise.resolve();
  const dropQueued = async () => {
    if (!existsSync(queueFile)) return;
    const lines = readFileSync(queueFile, "utf8").split("\n");
    const complete = lines.slice(done, lines.length - 1); // the last piece has no newline yet
    done += complete.length;
    if (complete.length === 0) return;
    const { default: pg } = await import("pg");
    const queue = complete.map((line) => line.split("\t"));
    // Several at once: PostgreSQL serves the checkpoints they ask for together.
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [url, database] = next;
        const admin = new pg.Client({ connectionString: url });
        try {
          await admin.connect();
          await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        } catch (err) {
          process.stderr.write(`# could not drop the test database ${database}: ${err.message}\n`);
        } finally {
          await admin.end().catch(() => {});
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  };
  return {
    /** Starts a batch after the one under way, if any. */
    drain() {
      running = running.then(dropQueued);
      return running;
    },
  };
}

const args = process.argv.slice(2);
const files = longestFirst(args.length > 0 ? args : findTests("test"));
const ownStats = process.env.PARLEY_CONTRACT_STATS === undefined;
const statsDir = process.env.PARLEY_CONTRACT_STATS ?? mkdtempSync(join(tmpdir(), "parley-contract-stats-"));
const runDir = mkdtempSync(join(tmpdir(), "parley-test-run-"));
const dropQueue = join(runDir, "drop-queue");
const env = { ...process.env, PARLEY_CONTRACT_STATS: statsDir, PARLEY_TEST_DROP_QUEUE: dropQueue };
const dropper = databaseDropper(dropQueue);
const dropping = setInterval(() => dropper.drain(), 20_000);
const summary = files.filter((f) => join(f) === SUMMARY);
const started = Date.now();
const mainStatus = await run(
  files.filter((f) => join(f) !== SUMMARY),
  env,
  join(runDir, "main.jsonl"),
);
const summaryStatus = await run(summary, env, join(runDir, "summary.jsonl"));
clearInterval(dropping);
await dropper.drain();
const status = Math.max(mainStatus, summaryStatus);
const timings = [...readTimings(join(runDir, "main.jsonl")), ...readTimings(join(runDir, "summary.jsonl"))];
rmSync(runDir, { recursive: true, force: true });
if (ownStats) rmSync(statsDir, { recursive: true, force: true });

if (process.env.PARLEY_TEST_TIMINGS) writeFileSync(process.env.PARLEY_TEST_TIMINGS, timings.map((t) => JSON.stringify(t)).join("\n") + "\n");
if (process.env.PARLEY_RECORD_TIMINGS === "1") {
  const known = knownTimings();
  for (const t of timings) known[t.file] = Math.round(t.seconds);
  const sorted = Object.fromEntries(Object.entries(known).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(TIMINGS_FILE, JSON.stringify(sorted, null, 2) + "\n");
}
if (timings.length > 1) {
  const slowest = [...timings].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  process.stdout.write(`# ${timings.length} test files in ${Math.round((Date.now() - started) / 1000)} s; the slowest:\n`);
  for (const t of slowest) process.stdout.write(`#   ${String(t.seconds).padStart(6)} s  ${t.file}\n`);
}
process.exit(status);
