/**
 * S10: S2 and S6 with two Parley processes sharing one PostgreSQL database and fanning events out
 * through Redis. Its own small organisation (the pollers, the two scenario channels, no history)
 * in a fresh database. S2 drives both processes at once; in S6 half the pollers hold their queue in
 * each process and the message is sent through the first, so half the deliveries cross Redis.
 * Correct = no failed request and every queue receives every message. Skipped, visibly, when
 * PostgreSQL or Redis does not answer.
 */
import { Redis } from "ioredis";
import { join } from "node:path";
import { freePort } from "../../test/helpers/server-process.js";
import { testStoreUrls } from "../../src/config.js";
import { openStore } from "../../src/store/db.js";
import { DB_CONNECTIONS, type Context } from "../lib/context.js";
import { HttpClient, quantile } from "../lib/http.js";
import { loadAverage, loadTest, type Measurement } from "../lib/measure.js";
import { startParley } from "../lib/parley.js";
import { Poller, registerAll } from "../lib/pollers.js";
import { stop, type Child } from "../lib/processes.js";
import { formatInt, type Row } from "../lib/report.js";
import { pollers as pollingUsers, ROLES, seedOrg, subscribeOrg, type BenchOrg, type OrgShape } from "../lib/seed.js";
import { createStore, postgresAvailable } from "../lib/stores.js";
import { parleyRounds } from "./s6-fanout.js";
import { loadSpec } from "./requests.js";
import { TYPICAL_CONTENT } from "./s2-send.js";

const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";
const REDIS_PROBE_MS = 2000;

async function redisAvailable(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: REDIS_PROBE_MS, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function skipped(reason: string): Row[] {
  console.log(`S10 skipped: ${reason}`);
  return [{ id: "S10", rps: null, p50: null, p99: null, baseline: "-", ratio: null, target: "correct, numbers reported", pass: null, note: `skipped: ${reason}`, load: loadAverage() }];
}

/** S2's send on both processes at once; throughput summed, the worse latencies kept. */
async function sendOnBoth(ctx: Context, processes: Child[], org: BenchOrg): Promise<Measurement> {
  const { seconds, warmupSeconds } = ctx.opts.sizes;
  const send = { method: "POST" as const, path: "/messages", params: { type: "stream", to: org.hundred.name, topic: "bench", content: TYPICAL_CONTENT }, user: org.users[ROLES.sender] };
  const runs = await Promise.all(processes.map((p) => loadTest(loadSpec(send, p.port, DB_CONNECTIONS), seconds, warmupSeconds, p.pid)));
  return {
    rps: runs.reduce((n, r) => n + r.rps, 0),
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    requests: runs.reduce((n, r) => n + r.requests, 0),
    failed: runs.reduce((n, r) => n + r.failed, 0),
    cpuUs: runs.reduce((n, r) => n + r.cpuUs, 0) / runs.length,
    serverCpuS: runs.reduce((n, r) => n + r.serverCpuS, 0),
    generatorCpuS: runs.reduce((n, r) => n + r.generatorCpuS, 0),
    load: loadAverage(),
  };
}

export async function s10(ctx: Context): Promise<Row[]> {
  const redisUrl = testStoreUrls().redis ?? DEFAULT_REDIS_URL;
  if (!(await postgresAvailable())) return skipped("PostgreSQL does not answer (TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test)");
  if (!(await redisAvailable(redisUrl))) return skipped(`Redis does not answer at ${redisUrl} (REDIS_URL)`);
  const { sizes } = ctx.opts;
  const shape: OrgShape = { users: sizes.shape.pollers + 150, channels: 4, subsPerUser: 1, pollers: sizes.shape.pollers };
  const db = await createStore("postgres", ctx.dir, "s10");
  ctx.track(db);
  const processes: Child[] = [];
  const clients: HttpClient[] = [];
  try {
    const store = openStore(db.url);
    let org: BenchOrg;
    try {
      org = await seedOrg(store, shape, "127.0.0.1");
      await subscribeOrg(store, org, shape);
    } finally {
      await store.close();
    }
    for (const name of ["s10-a", "s10-b"]) {
      processes.push(await startParley(name, ctx.cmd, await freePort(), { databaseUrl: db.url, varDir: join(ctx.dir, name), redisUrl }));
    }
    const sent = await sendOnBoth(ctx, processes, org);
    const users = pollingUsers(org, shape);
    clients.push(...processes.map((p) => new HttpClient(p.port, Math.ceil(users.length / 2) + 8)));
    const pollers = users.map((u, i) => new Poller(clients[i % 2], u));
    await registerAll(pollers, ["message"]);
    const d = await parleyRounds({ pollers, servers: processes, http: clients[0], sender: org.users[ROLES.sender], channel: org.everyone }, sizes.deliveryRounds, sizes.quietMs);
    const correct = sent.failed === 0 && d.missing === 0;
    return [
      {
        id: "S10",
        rps: sent.rps,
        p50: sent.p50,
        p99: sent.p99,
        baseline: `fan-out p99 ${quantile(d.latencies, 0.99).toFixed(0)} ms`,
        ratio: null,
        target: "correct, numbers reported",
        pass: correct,
        note:
          `2 processes on PostgreSQL + Redis: S2 ${formatInt(sent.requests)} sends (${sent.failed} failed), both processes at ${DB_CONNECTIONS} connections each; ` +
          `S6 ${users.length} queues (half per process) × ${sizes.deliveryRounds}: p50 ${quantile(d.latencies, 0.5).toFixed(0)} ms, ` +
          `p99 ${quantile(d.latencies, 0.99).toFixed(0)} ms, ${d.missing} missing`,
        load: sent.load,
      },
    ];
  } finally {
    for (const c of clients) c.close();
    await Promise.all(processes.map(stop));
    await db.drop();
  }
}
