/**
 * Load generation: autocannon over loopback for throughput and latency under concurrency, and a
 * sequential client with sub-millisecond timing where a fine p50 matters (S4). Each result carries
 * the server's CPU time per request (from /proc), which stays meaningful when other work on the
 * machine makes requests/s noisy, and the 1-minute load average when it was taken.
 */
import autocannon from "autocannon";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { quantile, type HttpClient } from "./http.js";
import { cpuSeconds } from "./processes.js";

export interface Stat {
  rps: number;
  p50: number;
  p99: number;
}

export interface Measurement extends Stat {
  requests: number;
  /** Non-2xx answers, socket errors and timeouts. */
  failed: number;
  /** Server CPU (user + system) per request, µs; NaN without /proc. */
  cpuUs: number;
  /** The same in all, seconds, and the load generator's (this process: autocannon) beside it. */
  serverCpuS: number;
  generatorCpuS: number;
  load: number;
}

export interface LoadSpec {
  port: number;
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Form body for POST. */
  body?: string;
  connections: number;
}

export const loadAverage = () => loadavg()[0];

/**
 * A warm-up, then `seconds` of load; latency percentiles have autocannon's 1 ms resolution. The
 * server's CPU is read with `cpuOf` (one process's by default; S14 sums a cluster's tree).
 */
export async function loadTest(spec: LoadSpec, seconds: number, warmupSeconds: number, serverPid: number, cpuOf: (pid: number) => number = cpuSeconds): Promise<Measurement> {
  const opts = {
    url: `http://127.0.0.1:${spec.port}${spec.path}`,
    method: spec.method ?? "GET",
    connections: spec.connections,
    headers: { ...spec.headers, ...(spec.body !== undefined ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: spec.body,
  };
  if (warmupSeconds > 0) await autocannon({ ...opts, duration: warmupSeconds });
  const cpuBefore = cpuOf(serverPid);
  const generator = process.cpuUsage();
  const r = await autocannon({ ...opts, duration: seconds });
  const serverCpuS = cpuOf(serverPid) - cpuBefore;
  const used = process.cpuUsage(generator);
  const requests = r.requests.total;
  return {
    rps: requests / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests,
    failed: r.non2xx + r.errors + r.timeouts,
    cpuUs: (serverCpuS / requests) * 1e6,
    serverCpuS,
    generatorCpuS: (used.user + used.system) / 1e6,
    load: loadAverage(),
  };
}

export interface TimedRequest {
  client: HttpClient;
  method: "GET" | "POST";
  path: string;
  params: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * Sequential requests to several targets in turn (A, B, A, B…), so slow drifts of the machine's load
 * hit them alike; returns each target's latencies in ms, ascending.
 */
export async function interleaved(targets: TimedRequest[], rounds: number): Promise<number[][]> {
  const times = targets.map((): number[] => []);
  for (let i = 0; i < rounds; i++) {
    for (const [k, t] of targets.entries()) {
      const start = performance.now();
      const r = await t.client.call(t.method, t.path, t.params, { headers: t.headers });
      if (r.status !== 200) throw new Error(`${t.method} ${t.path}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      times[k].push(r.at - start);
    }
  }
  return times.map((t) => t.sort((a, b) => a - b));
}

export function stats(sortedMs: readonly number[], seconds: number): Stat {
  return { rps: sortedMs.length / seconds, p50: quantile(sortedMs, 0.5), p99: quantile(sortedMs, 0.99) };
}
