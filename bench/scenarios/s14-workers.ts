/**
 * S14 (issue 21, item 5): S1, S2 and S3 (and S12's fan-out at N = 200, reported) served by one process and by a cluster of N workers
 * (WORKERS = the cores here) on the same store, one after the other at the same concurrency; the
 * ratio of N workers' requests/s to one process's is the row's. CPU per request is given for the
 * server (the primary and every worker) and with the load generator's CPU added (autocannon runs
 * in this process, on the same cores): on a machine of N cores the generator takes part of them,
 * which bounds what N workers can show. Each pair runs twice in mirrored order (1, N, N, 1) so a
 * drift of the machine's load hits both alike. Target: ≥ 1.6× with 2 workers.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { freePort } from "../../test/helpers/server-process.js";
import { authHeaders, DB_CONNECTIONS, PIPELINE_CONNECTIONS, type Context } from "../lib/context.js";
import { loadAverage, loadTest, type LoadSpec } from "../lib/measure.js";
import { startParley } from "../lib/parley.js";
import { processTree, stop, treeCpu, waitForIdle, type Child } from "../lib/processes.js";
import { formatInt, type Row } from "../lib/report.js";
import { ROLES } from "../lib/seed.js";
import { loadSpec, type ApiRequest } from "./requests.js";
import { sendToHundred } from "./s2-send.js";
import { topicNarrow } from "./s3-fetch.js";
import { runFor } from "./s12-channel-fanout.js";

const TARGET_RATIO = 1.6;
/** Members of the fan-out comparison (S12's smaller size). */
const S12_MEMBERS = 200;

interface Run {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  failed: number;
  serverCpuS: number;
  generatorCpuS: number;
}

/** One run against the primary's whole process tree (loadTest with a cluster's CPU). */
async function measure(spec: LoadSpec, seconds: number, warmupSeconds: number, serverPid: number): Promise<Run> {
  const m = await loadTest(spec, seconds, warmupSeconds, serverPid, treeCpu);
  return { rps: m.rps, p50: m.p50, p99: m.p99, requests: m.requests, failed: m.failed, serverCpuS: m.serverCpuS, generatorCpuS: m.generatorCpuS };
}

/** Two runs merged: requests and CPU summed, rates and latencies averaged. */
function merge(a: Run, b: Run): Run {
  return {
    rps: (a.rps + b.rps) / 2,
    p50: (a.p50 + b.p50) / 2,
    p99: (a.p99 + b.p99) / 2,
    requests: a.requests + b.requests,
    failed: a.failed + b.failed,
    serverCpuS: a.serverCpuS + b.serverCpuS,
    generatorCpuS: a.generatorCpuS + b.generatorCpuS,
  };
}

const perRequestUs = (cpuS: number, requests: number) => ((cpuS / Math.max(1, requests)) * 1e6).toFixed(0);

function cpuText(r: Run): string {
  return `${perRequestUs(r.serverCpuS, r.requests)} µs server, ${perRequestUs(r.serverCpuS + r.generatorCpuS, r.requests)} µs with the load generator`;
}

/** Starts the N-worker server on the big store and waits until every worker has started and settled. */
async function startCluster(ctx: Context, workers: number): Promise<Child> {
  const name = `parley-${workers}-workers`;
  const child = await startParley(name, ctx.cmd, await freePort(), { databaseUrl: ctx.big.store.url, varDir: join(ctx.dir, name), workers });
  const deadline = Date.now() + 120_000;
  while (processTree(child.pid).length < workers + 1) {
    if (Date.now() > deadline) throw new Error(`${name}: fewer than ${workers} workers started`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await waitForIdle(processTree(child.pid), ctx.opts.sizes.quietMs * 2, 60_000);
  return child;
}

export async function s14(ctx: Context): Promise<Row[]> {
  // The CI smoke run has two minutes for every scenario; a cluster's start-up alone can take one.
  if (ctx.opts.mode === "smoke") {
    const note = "skipped: the smoke run starts no cluster (npm run bench -- --quick --only S14)";
    return [{ id: "S14", rps: null, p50: null, p99: null, baseline: "-", ratio: null, target: `≥ ${TARGET_RATIO}× with 2 workers`, pass: null, note, load: loadAverage() }];
  }
  const workers = Math.max(2, availableParallelism());
  const { sizes } = ctx.opts;
  // Ratios of one-second runs say little: at least 5 s per run.
  const seconds = Math.max(sizes.seconds, 5);
  const cluster = await startCluster(ctx, workers);
  try {
    const single = ctx.big.parley;
    const me: ApiRequest = { method: "GET", path: "/users/me", params: {}, user: ctx.org.users[ROLES.me] };
    const cases: Array<{ id: string; request: ApiRequest; connections: number }> = [
      { id: "S14/S1", request: me, connections: PIPELINE_CONNECTIONS },
      // Enough connections to keep every worker busy, the same for one process.
      { id: "S14/S2", request: sendToHundred(ctx.org), connections: DB_CONNECTIONS * workers },
      { id: "S14/S3", request: topicNarrow(ctx.org), connections: DB_CONNECTIONS * workers },
    ];
    const rows: Row[] = [];
    for (const c of cases) {
      const run = (target: Child) => measure(c.request === me ? { port: target.port, path: "/api/v1/users/me", headers: authHeaders(c.request.user), connections: c.connections } : loadSpec(c.request, target.port, c.connections), seconds, sizes.warmupSeconds, target.pid);
      const one1 = await run(single);
      const many1 = await run(cluster);
      const many2 = await run(cluster);
      const one2 = await run(single);
      const one = merge(one1, one2);
      const many = merge(many1, many2);
      const ratio = many.rps / one.rps;
      const load = loadAverage();
      rows.push({
        id: c.id,
        rps: many.rps,
        p50: many.p50,
        p99: many.p99,
        baseline: `1 process ${formatInt(one.rps)}/s`,
        ratio,
        target: `≥ ${TARGET_RATIO}× with 2 workers`,
        pass: workers === 2 ? ratio >= TARGET_RATIO && one.failed + many.failed === 0 : null,
        note:
          `${workers} workers vs 1 process at ${c.connections} connections, ${seconds} s × 2 each: ` +
          `1 process p50 ${one.p50.toFixed(1)} ms p99 ${one.p99.toFixed(1)} ms, CPU/request ${cpuText(one)}; ` +
          `${workers} workers CPU/request ${cpuText(many)}; ${one.failed + many.failed} failed; load average ${load.toFixed(1)} on ${availableParallelism()} cores`,
        load,
      });
    }
    // Fan-out (S12's saturated sends to N long-polling members) with one process and with the
    // cluster: half the polls arrive at the worker that does not hold their queue and are relayed.
    const n = Math.min(S12_MEMBERS, ctx.opts.sizes.shape.pollers);
    const oneFanout = await runFor(ctx, n);
    const manyFanout = await runFor(ctx, n, cluster);
    const load = loadAverage();
    rows.push({
      id: `S14/S12`,
      rps: manyFanout.rps,
      p50: manyFanout.p50,
      p99: manyFanout.p99,
      baseline: `1 process ${formatInt(oneFanout.rps ?? 0)} deliveries/s`,
      ratio: (manyFanout.rps ?? 0) / Math.max(1, oneFanout.rps ?? 0),
      target: "reported (deliveries/s)",
      pass: null,
      note: `${workers} workers vs 1 process, N = ${n}. 1 process: ${oneFanout.note}. ${workers} workers: ${manyFanout.note}`,
      load,
    });
    return rows;
  } finally {
    await stop(cluster);
  }
}
