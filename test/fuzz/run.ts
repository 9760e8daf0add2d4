/**
 * `npm run fuzz -- [--long] [--runs N] [--seed S] [--endpoint "METHOD /path"]`: runs the API fuzz
 * suite alone (on PostgreSQL too when TEST_DATABASE_URL is set). --long is 5000 requests per
 * endpoint instead of CI's 200; the options set the FUZZ_* variables ./settings.ts reads, which
 * may also be set directly.
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    long: { type: "boolean", default: false },
    runs: { type: "string" },
    seed: { type: "string" },
    endpoint: { type: "string" },
  },
});

const env = { ...process.env };
// Servers the fuzz suites start are one process each (WORKERS), whatever the machine has.
env.WORKERS ??= "1";
if (values.long) env.FUZZ_RUNS = "5000";
if (values.runs) env.FUZZ_RUNS = values.runs;
if (values.seed) env.FUZZ_SEED = values.seed;
if (values.endpoint) env.FUZZ_ENDPOINT = values.endpoint;
// One base seed for both stores' files, so they send the same requests.
env.FUZZ_SEED ??= String(Date.now() % 2 ** 31);

const files = ["test/fuzz/api-fuzz-sqlite.test.ts", "test/fuzz/api-fuzz-postgres.test.ts"];
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...files], { stdio: "inherit", env });
process.exit(result.status ?? 1);
