/**
 * S6: 2,000 users each long-polling one queue (register + GET /events); one message to a channel
 * they all subscribe to; send→delivery timed for every queue, over several rounds, against Bpoll
 * (a bare node:http server answering as many parked polls with one small body), same client.
 * S9: Parley's memory at start-up (taken by run.ts) and with those 2,000 queues and parked polls.
 */
import { startBpoll, bpollRound } from "../lib/baselines.js";
import { authHeaders, type Context } from "../lib/context.js";
import { HttpClient, quantile } from "../lib/http.js";
import { loadAverage } from "../lib/measure.js";
import { deliveryRound, Poller, registerAll, sharedAbort, type Round } from "../lib/pollers.js";
import { memory, stop, waitForIdle, type Child, type Memory } from "../lib/processes.js";
import type { Row } from "../lib/report.js";
import { pollers as pollingUsers, ROLES, type BenchChannel, type BenchUser } from "../lib/seed.js";

/** A delivery that has not arrived this long after the send counts as lost. */
export const DELIVERY_TIMEOUT_MS = 30_000;
/** Sockets beyond the pollers' own (the sender, Bpoll's control requests). */
const SPARE_SOCKETS = 8;

export interface Delivery {
  latencies: number[];
  missing: number;
}

export function merge(rounds: Round[]): Delivery {
  return { latencies: rounds.flatMap((r) => r.latencies).sort((a, b) => a - b), missing: rounds.reduce((n, r) => n + r.missing, 0) };
}

async function measureBpoll(n: number, rounds: number, quietMs: number): Promise<Delivery> {
  const server = await startBpoll();
  const http = new HttpClient(server.port, n + SPARE_SOCKETS);
  try {
    const out: Round[] = [];
    for (let i = 0; i < rounds; i++) out.push(await bpollRound(http, server, n, quietMs));
    return merge(out);
  } finally {
    http.close();
    await stop(server);
  }
}

/** Longest wait for the servers to settle (park every poll) before a send. */
export const SETTLE_MAX_MS = 30_000;

export interface FanOut {
  pollers: Poller[];
  /** The Parley processes holding the queues. */
  servers: Child[];
  /** Sends through this client, as `sender`, to `channel`. */
  http: HttpClient;
  sender: BenchUser;
  channel: BenchChannel;
}

/** Rounds of one message each to the channel, every poller timed. */
export async function parleyRounds(f: FanOut, rounds: number, quietMs: number): Promise<Delivery> {
  const ready = () => waitForIdle(f.servers.map((s) => s.pid), quietMs, SETTLE_MAX_MS);
  const out: Round[] = [];
  for (let i = 0; i < rounds; i++) {
    const nonce = `fanout-${i}-${Date.now()}`;
    const send = async () => {
      const params = { type: "stream", to: f.channel.name, topic: "fanout", content: nonce };
      const r = await f.http.call("POST", "/api/v1/messages", params, { headers: authHeaders(f.sender) });
      if (r.status !== 200) throw new Error(`sending the fan-out message: ${r.status} ${JSON.stringify(r.body)}`);
    };
    const match = (e: Record<string, any>) => e.type === "message" && String(e.message?.content).includes(nonce); // eslint-disable-line @typescript-eslint/no-explicit-any
    out.push(await deliveryRound(f.pollers, match, send, { ready, timeoutMs: DELIVERY_TIMEOUT_MS }));
  }
  return merge(out);
}

function s9Row(idle: Memory & { idleMs: number }, queues: Memory, n: number, load: number): Row {
  const pass = idle.rss < 100 && queues.rss < 400;
  return {
    id: "S9",
    rps: null,
    p50: null,
    p99: null,
    baseline: `idle ${idle.rss.toFixed(0)} MB; ${n} queues ${queues.rss.toFixed(0)} MB`,
    ratio: null,
    target: `idle < 100 MB; ${n} queues < 400 MB`,
    pass,
    note: `VmRSS after ${(idle.idleMs / 1000).toFixed(0)} s idle from start-up ${idle.rss.toFixed(1)} MiB (start-up peak VmHWM ${idle.hwm.toFixed(1)}); with ${n} queues and parked polls on the big store ${queues.rss.toFixed(1)} MiB (VmHWM ${queues.hwm.toFixed(1)}, the peak of the whole run so far)`,
    load,
  };
}

export async function s6AndS9(ctx: Context): Promise<Row[]> {
  const { shape, deliveryRounds, quietMs } = ctx.opts.sizes;
  const n = shape.pollers;
  const bpoll = await measureBpoll(n, deliveryRounds, quietMs);
  const parley = ctx.big.parley;
  const http = new HttpClient(parley.port, n + SPARE_SOCKETS);
  const pollers = pollingUsers(ctx.org, shape).map((u) => new Poller(http, u));
  const park = sharedAbort();
  try {
    await registerAll(pollers, ["message"]);
    const d = await parleyRounds({ pollers, servers: [parley], http, sender: ctx.org.users[ROLES.sender], channel: ctx.org.everyone }, deliveryRounds, quietMs);
    const load = loadAverage();
    const parked = Promise.all(pollers.map((p) => p.drain(park.signal)));
    await waitForIdle([parley.pid], quietMs, SETTLE_MAX_MS);
    const withQueues = memory(parley.pid);
    park.abort();
    await parked;
    const p99 = quantile(d.latencies, 0.99);
    const floor = quantile(bpoll.latencies, 0.99);
    const ratio = p99 / floor;
    const s6: Row = {
      id: "S6",
      rps: null,
      p50: quantile(d.latencies, 0.5),
      p99,
      baseline: `Bpoll p99 ${floor.toFixed(0)} ms`,
      ratio,
      target: "all delivered; p99 ≤ 2 × Bpoll p99",
      pass: d.missing === 0 && bpoll.missing === 0 && ratio <= 2,
      note:
        `${n} queues × ${deliveryRounds} messages: ${d.latencies.length} delivered, ${d.missing} missing; ` +
        `Bpoll ${n} parked polls × ${deliveryRounds}: p50 ${quantile(bpoll.latencies, 0.5).toFixed(0)} ms, ${bpoll.missing} not parked in time`,
      load,
    };
    return [s6, s9Row(ctx.idleMemory, withQueues, n, load)];
  } finally {
    park.abort();
    http.close();
  }
}
