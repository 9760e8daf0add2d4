/**
 * Where a V8 CPU profile's time goes (for `npm run bench -- --cpu-prof DIR`):
 * `npx tsx bench/profile-summary.ts FILE.cpuprofile [--top 25] [--filter text]`. Prints the
 * functions with the most self time, self time summed by source area (Parley's src/ folders,
 * each package under node_modules, node internals), and Parley's functions by total time (self plus
 * everything they called), each with its share of non-idle time.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(["(idle)", "(program)", "(garbage collector)"]);

/** Groups a script URL: src/<folder>, node_modules/<package>, node:internals, or the file. */
function area(url: string): string {
  if (!url) return "(native)";
  if (url.startsWith("node:")) return "node internals";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg ${pkg[1]}`;
  const src = /\/src\/([^/]+)\//.exec(url);
  if (src) return `src/${src[1]}`;
  return url.replace(/^.*\//, "");
}

const frameKey = (f: ProfileNode["callFrame"]) => `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*?(src|node_modules)\//, "$1/")}:${f.lineNumber + 1}`;

/** Total time per Parley (src/) function: each sample counts once for every distinct function on its stack. */
function inclusive(profile: Profile, byId: Map<number, ProfileNode>): Map<string, number> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (f.url.includes("/src/")) seen.add(frameKey(f));
    }
    for (const k of seen) total.set(k, (total.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return total;
}

function summarise(profile: Profile, top: number, filter: string | undefined): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const name = frame.functionName || "(anonymous)";
    if (IDLE.has(name)) {
      idle += us;
      if (name !== "(garbage collector)") continue;
    }
    busy += us;
    const key = frameKey(frame);
    if (!filter || key.includes(filter)) byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    byArea.set(area(frame.url), (byArea.get(area(frame.url)) ?? 0) + us);
  }
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  console.log(`busy ${ms(busy)}, idle ${ms(idle)}\n\nself time by area:`);
  for (const [k, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)} ${pct(us)}  ${k}`);
  console.log(`\nself time by function${filter ? ` (matching ${filter})` : ""}:`);
  for (const [k, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)} ${pct(us)}  ${k}`);
  console.log(`\nParley functions by total time${filter ? ` (matching ${filter})` : ""}:`);
  const totals = [...inclusive(profile, byId)].filter(([k]) => !filter || k.includes(filter));
  for (const [k, us] of totals.sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)} ${pct(us)}  ${k}`);
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: "string", default: "25" }, filter: { type: "string" } } });
if (positionals.length === 0) {
  console.error("usage: tsx bench/profile-summary.ts FILE.cpuprofile [--top N] [--filter text]");
  process.exit(2);
}
for (const file of positionals) {
  console.log(`== ${file}`);
  summarise(JSON.parse(readFileSync(file, "utf8")) as Profile, Number(values.top), values.filter);
}
