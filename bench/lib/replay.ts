/**
 * Bstore: the SQL one request runs, executed directly through the database driver in this process.
 * `recordRequest` serves the request once in-process (buildApp + inject, on the benchmark's store)
 * with Kysely's query log on and keeps every statement with its parameters, transaction control
 * included; `replay` then runs that exact list in a loop through better-sqlite3 or pg, with no
 * HTTP, no Kysely, no rendering, no presentation: the floor the endpoint's SQL sets.
 */
import type { InjectOptions } from "fastify";
import pg from "pg";
import { performance } from "node:perf_hooks";
import { buildApp } from "../../src/app.js";
import { openStore } from "../../src/store/db.js";
import { quantile } from "./http.js";
import { benchDeps } from "./in-process.js";
import type { Stat } from "./measure.js";

export interface RecordedQuery {
  sql: string;
  parameters: readonly unknown[];
}

export interface Recording {
  queries: RecordedQuery[];
  status: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Serves `request` twice in-process and records the SQL of the second (the first fills caches and
 * prepares statements, as the long-running server has). `externalHost` names the realm's host.
 */
export async function recordRequest(url: string, externalHost: string, request: InjectOptions): Promise<Recording> {
  const queries: RecordedQuery[] = [];
  let recording = false;
  const store = openStore(url, {
    log: (event) => {
      if (recording && event.level === "query") queries.push({ sql: event.query.sql, parameters: [...event.query.parameters] });
    },
  });
  const app = await buildApp(benchDeps(store, externalHost), { logger: false });
  try {
    const inject = { ...request, headers: { host: externalHost, ...request.headers } };
    await app.inject(inject);
    recording = true;
    const res = await app.inject(inject);
    recording = false;
    if (res.statusCode !== 200) throw new Error(`recording ${request.method} ${request.url}: ${res.statusCode} ${res.body}`);
    return { queries, status: res.statusCode, body: res.json() };
  } finally {
    await app.close();
    await store.close();
  }
}

/**
 * Rewrites ids a write creates: each statement with RETURNING yields the id that stands, in later
 * statements' parameters, for the next of `returnedIds` (the ids the recorded request created).
 */
class IdMap {
  private readonly map = new Map<number, number>();
  private next = 0;

  constructor(private readonly returnedIds: readonly number[]) {}

  apply(params: readonly unknown[]): unknown[] {
    return params.map((p) => (typeof p === "number" && this.map.has(p) ? this.map.get(p) : p));
  }

  learn(sql: string, rows: ReadonlyArray<Record<string, unknown>>): void {
    if (!/\breturning\b/i.test(sql) || this.next >= this.returnedIds.length) return;
    this.map.set(this.returnedIds[this.next++], Number(rows[0]?.id));
  }
}

function checkReturning(rec: Recording, returnedIds: readonly number[]): void {
  const returning = rec.queries.filter((q) => /\breturning\b/i.test(q.sql)).length;
  if (returning !== returnedIds.length) {
    throw new Error(`the recorded request has ${returning} RETURNING statements; expected ${returnedIds.length} (one per created id)`);
  }
}

export interface ReplayOptions {
  seconds: number;
  warmupSeconds: number;
  /** PostgreSQL: loops running at once (the load test's connections). SQLite has one connection. */
  concurrency: number;
  /** Ids the recorded request created (a write), in the order its RETURNING statements ran. */
  returnedIds?: readonly number[];
}

/** SQLite: synchronous statements; the loop yields to the event loop every few milliseconds. */
async function replaySqlite(url: string, rec: Recording, opts: ReplayOptions, until: number, latencies: number[] | null): Promise<void> {
  const store = openStore(url);
  try {
    const raw = store.sqlite!.raw;
    // As the server begins its transactions (store/sqlite.ts writeLockFirst): a deferred one that
    // reads and then writes fails at once with "database is locked" when the server commits in
    // between (a background job), instead of waiting for the lock.
    const stmts = rec.queries.map((q) => ({
      sql: q.sql,
      stmt: raw.prepare(q.sql === "begin" ? "begin immediate" : q.sql),
      params: q.parameters.map((p) => (p === true ? 1 : p === false ? 0 : p)),
    }));
    let yielded = performance.now();
    while (performance.now() < until) {
      const ids = new IdMap(opts.returnedIds ?? []);
      const start = performance.now();
      for (const s of stmts) {
        const params = ids.apply(s.params);
        if (s.stmt.reader) ids.learn(s.sql, s.stmt.all(params) as Array<Record<string, unknown>>);
        else s.stmt.run(params);
      }
      const end = performance.now();
      latencies?.push(end - start);
      if (end - yielded > 20) {
        await new Promise((r) => setImmediate(r));
        yielded = performance.now();
      }
    }
  } finally {
    await store.close();
  }
}

async function replayPostgres(url: string, rec: Recording, opts: ReplayOptions, until: number, latencies: number[] | null): Promise<void> {
  const loop = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      while (performance.now() < until) {
        const ids = new IdMap(opts.returnedIds ?? []);
        const start = performance.now();
        for (const q of rec.queries) {
          const result = await client.query(q.sql, ids.apply(q.parameters));
          ids.learn(q.sql, result.rows);
        }
        latencies?.push(performance.now() - start);
      }
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, loop));
}

/** Runs the recorded statements in a loop for `seconds` (after a warm-up); throughput and latency per request. */
export async function replay(url: string, rec: Recording, opts: ReplayOptions): Promise<Stat> {
  if (opts.returnedIds) checkReturning(rec, opts.returnedIds);
  const run = url.startsWith("sqlite:") ? replaySqlite : replayPostgres;
  if (opts.warmupSeconds > 0) await run(url, rec, opts, performance.now() + opts.warmupSeconds * 1000, null);
  const latencies: number[] = [];
  const start = performance.now();
  await run(url, rec, opts, start + opts.seconds * 1000, latencies);
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}
