#!/usr/bin/env node
// Runs every test file under test/ with node's built-in runner (node 20 has no --test globbing).
// Extra arguments are passed through, e.g. `npm test -- test/api/auth.test.ts` runs one file.
// Each test process reports what it held to Zulip's API contract into one directory
// (PARLEY_CONTRACT_STATS); the contract summary test runs after the others and sums it up.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SUMMARY = join("test", "contract", "contract-summary.test.ts");

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

function run(files, env) {
  if (files.length === 0) return 0;
  const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...files], { stdio: "inherit", env });
  return result.status ?? 1;
}

const args = process.argv.slice(2);
const files = args.length > 0 ? args : findTests("test").sort();
const ownStats = process.env.PARLEY_CONTRACT_STATS === undefined;
const statsDir = process.env.PARLEY_CONTRACT_STATS ?? mkdtempSync(join(tmpdir(), "parley-contract-stats-"));
const env = { ...process.env, PARLEY_CONTRACT_STATS: statsDir };
const summary = files.filter((f) => join(f) === SUMMARY);
const status = Math.max(run(files.filter((f) => join(f) !== SUMMARY), env), run(summary, env));
if (ownStats) rmSync(statsDir, { recursive: true, force: true });
process.exit(status);
