/**
 * One API request described once and used three ways: served in-process to record its SQL
 * (Bstore), driven by autocannon against the Parley process, and sent by the timed client.
 */
import type { InjectOptions } from "fastify";
import { authHeaders, DB_CONNECTIONS, hostOf, type Context, type Target } from "../lib/context.js";
import { formEncode, HttpClient } from "../lib/http.js";
import { loadTest, type LoadSpec, type Measurement, type Stat, type TimedRequest } from "../lib/measure.js";
import { recordRequest, replay } from "../lib/replay.js";
import { formatInt } from "../lib/report.js";
import type { BenchUser } from "../lib/seed.js";

export interface ApiRequest {
  method: "GET" | "POST";
  /** Under /api/v1. */
  path: string;
  params: Record<string, unknown>;
  user: BenchUser;
}

const url = (r: ApiRequest) => `/api/v1${r.path}${r.method === "GET" ? `?${formEncode(r.params)}` : ""}`;

export function injectOptions(r: ApiRequest): InjectOptions {
  const headers = authHeaders(r.user);
  if (r.method === "GET") return { method: "GET", url: url(r), headers };
  return { method: "POST", url: url(r), headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, payload: formEncode(r.params) };
}

export function loadSpec(r: ApiRequest, port: number, connections: number): LoadSpec {
  return { port, path: url(r), method: r.method, headers: authHeaders(r.user), body: r.method === "POST" ? formEncode(r.params) : undefined, connections };
}

export function timed(r: ApiRequest, client: HttpClient): TimedRequest {
  return { client, method: r.method, path: `/api/v1${r.path}`, params: r.params, headers: authHeaders(r.user) };
}

/** autocannon at DB_CONNECTIONS (or `connections`) against the target's Parley. */
export function loadParley(ctx: Context, t: Target, r: ApiRequest, connections = DB_CONNECTIONS): Promise<Measurement> {
  const { seconds, warmupSeconds } = ctx.opts.sizes;
  return loadTest(loadSpec(r, t.parley.port, connections), seconds, warmupSeconds, t.parley.pid);
}

/**
 * The store-bound scenarios measured twice. `alone`: one connection, requests one after another,
 * for the latency targets (p50, p99): what one request costs its client. Parley serves requests on
 * one thread, so with n connections each request also waits for the n - 1 ahead of it and the
 * p50 becomes about n requests' work, a figure about queueing rather than the request. `busy`:
 * DB_CONNECTIONS at once, for throughput and the ratio to Bstore (replayed at the same
 * concurrency). Rows show busy's requests/s with alone's latencies; the note gives busy's too.
 */
export async function aloneAndBusy(ctx: Context, t: Target, r: ApiRequest): Promise<{ alone: Measurement; busy: Measurement }> {
  const alone = await loadParley(ctx, t, r, 1);
  const busy = await loadParley(ctx, t, r);
  return { alone, busy };
}

export const busyNote = (busy: Measurement) =>
  `at ${DB_CONNECTIONS} connections ${formatInt(busy.rps)}/s, p50 ${busy.p50} ms, p99 ${busy.p99} ms, Parley CPU ${busy.cpuUs.toFixed(0)} µs/request`;

export interface StoreBaseline extends Stat {
  statements: number;
}

/**
 * Bstore for a request: its SQL recorded in-process on the target's store, then replayed through
 * the driver. `creates` is true for a request whose answer's `id` is a row it created.
 */
export async function storeBaseline(ctx: Context, t: Target, r: ApiRequest, creates: boolean): Promise<StoreBaseline> {
  const { seconds, warmupSeconds } = ctx.opts.sizes;
  const rec = await recordRequest(t.store.url, hostOf(t.parley.port), injectOptions(r));
  const stat = await replay(t.store.url, rec, { seconds, warmupSeconds, concurrency: DB_CONNECTIONS, returnedIds: creates ? [rec.body.id] : undefined });
  return { ...stat, statements: rec.queries.length };
}

export const bstoreText = (b: StoreBaseline) => `Bstore ${formatInt(b.rps)}/s`;

export function bstoreNote(b: StoreBaseline, m: { alone: Measurement; busy: Measurement }): string {
  return (
    `Bstore replays the request's ${b.statements} SQL statements (p50 ${b.p50.toFixed(2)} ms, p99 ${b.p99.toFixed(2)} ms); ` +
    `${busyNote(m.busy)}; ${m.alone.failed + m.busy.failed} failed`
  );
}
