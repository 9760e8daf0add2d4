// Run by scripts/run-tests.mjs as `node --import tsx scripts/test-driver.mjs <timings file> <test files…>`:
// node's test runner over the files in the order given, two at a time, each in a process of its
// own that inherits this one's `--import tsx`, as `node --test` runs them (node 20's `--test`
// sorts the files by name; its run() keeps the order). It reports as `node --test` does (spec on a
// terminal, TAP otherwise), exits 1 when a test failed, and writes each file's wall time, import
// included, to the timings file: one JSON line each, with its path relative to the working directory.
import { appendFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";

const [timingsFile, ...files] = process.argv.slice(2);
const stream = run({ files: files.map((f) => resolve(f)), concurrency: 2 });

/** The test that wraps a whole file's process (nesting 0, named after the file). */
const isFile = (data) => data.nesting === 0 && data.file !== undefined && data.name === data.file;
const started = new Map();
stream.on("test:dequeue", (data) => {
  if (isFile(data)) started.set(data.file, Date.now());
});
stream.on("test:complete", (data) => {
  if (!isFile(data)) return;
  const seconds = Math.round((data.details?.duration_ms ?? 0) / 100) / 10;
  const line = { file: relative(process.cwd(), data.file), seconds, startedAt: started.get(data.file) ?? null, ok: data.details?.passed ?? !data.details?.error };
  appendFileSync(timingsFile, JSON.stringify(line) + "\n");
});
stream.on("test:fail", (data) => {
  if (!data.todo) process.exitCode = 1;
});

stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
