/**
 * CI smoke test of the benchmark suite (issue 8): `bench/run.ts --smoke` runs every scenario on tiny
 * stores with sub-second load tests, exits 0 and writes each scenario into its results file. No
 * target is enforced: on a shared CI machine the numbers mean nothing, the plumbing does.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCENARIOS = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "S11", "S12", "S13", "S14", "S15", "S16"];
const LIMIT_MS = 120_000;

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/run.ts", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

test("the benchmark's smoke mode runs every scenario and writes the results", { timeout: LIMIT_MS }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-test-"));
  try {
    const resultsPath = join(dir, "results.json");
    const { code, output } = await run(["--smoke", "--results", resultsPath]);
    assert.equal(code, 0, output);
    const results = JSON.parse(readFileSync(resultsPath, "utf8")) as Record<string, { target: string; pass: boolean | null; note: string }>;
    // A scenario measured at several sizes has one row per size ("S12/40").
    assert.deepEqual([...new Set(Object.keys(results).map((id) => id.split("/")[0]))].sort(), [...SCENARIOS].sort());
    for (const [id, row] of Object.entries(results)) {
      assert.ok(typeof row.target === "string", `${id} has a target`);
      assert.ok(!row.note.startsWith("error:"), `${id}: ${row.note}`);
    }
    assert.match(output, /scenario\s+requests\/s\s+p50 ms\s+p99 ms\s+baseline\s+ratio\s+target\s+result/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
