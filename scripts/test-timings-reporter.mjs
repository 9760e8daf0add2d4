// A node:test reporter that writes one JSON line per test file: its path (relative to the working
// directory), when its process was started and how long it ran (wall time, import included), and
// whether it passed. scripts/run-tests.mjs adds it beside the usual reporter to time each file.
import { relative } from "node:path";

export default async function* timings(source) {
  const started = new Map();
  for await (const event of source) {
    const data = event.data ?? {};
    // The file's own test (nesting 0, named after the file) wraps its whole process.
    if (data.nesting !== 0 || data.file === undefined || data.name !== data.file) continue;
    if (event.type === "test:dequeue") started.set(data.file, Date.now());
    else if (event.type === "test:complete") {
      const file = relative(process.cwd(), data.file);
      const seconds = Math.round((data.details?.duration_ms ?? 0) / 100) / 10;
      const ok = data.details?.passed ?? !data.details?.error;
      yield JSON.stringify({ file, seconds, startedAt: started.get(data.file) ?? null, ok }) + "\n";
    }
  }
}
