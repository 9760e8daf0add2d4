/**
 * S12 (issue 21, item 4): N members of one channel all long-polling, one sender. A channel of
 * exactly the sender and N pollers is created for each N (200 and 1,000 in a full run; the quick
 * sizes' poller count otherwise), then:
 * - steady: one message at a time, every poller timed from just before the send to its delivery,
 *   and the sender's own POST /messages latency (the sender is a client of its own, on a thread of
 *   its own: bench/lib/sender-thread.ts);
 * - saturated: the sender sends back to back for the load test's duration while every poller keeps
 *   polling: messages accepted/s, deliveries/s, server CPU per delivery and the server's memory.
 * Targets (the peer's figures on the issue's machine): at N = 1,000 delivery p99 ≤ 45 ms and
 * ≥ 31,000 deliveries/s; at N = 200 the sender's p50 < 10 ms and ≥ 20,000 deliveries/s.
 */
import { performance } from "node:perf_hooks";
import { authHeaders, type Context } from "../lib/context.js";
import { HttpClient, quantile } from "../lib/http.js";
import { loadAverage } from "../lib/measure.js";
import { deliveryRound, Poller, registerAll, sharedAbort, type Round } from "../lib/pollers.js";
import { processTree, treeCpu, treeRss, waitForIdle } from "../lib/processes.js";
import { SenderThread } from "../lib/sender-thread.js";
import type { Row } from "../lib/report.js";
import { pollers as pollingUsers, ROLES, type BenchUser } from "../lib/seed.js";
import { DELIVERY_TIMEOUT_MS, merge, SETTLE_MAX_MS } from "./s6-fanout.js";

/** Subscribers added per request while the channel is set up. */
const PRINCIPALS_PER_REQUEST = 250;
/** Steady rounds per N (at least; the sizes' delivery rounds when larger). */
const STEADY_ROUNDS = 5;

interface Targets {
  p99Ms?: number;
  senderP50Ms?: number;
  deliveriesPerSecond: number;
}

const TARGETS: Record<number, Targets> = {
  1000: { p99Ms: 45, deliveriesPerSecond: 31_000 },
  200: { senderP50Ms: 10, deliveriesPerSecond: 20_000 },
};

async function createChannel(http: HttpClient, owner: BenchUser, name: string, members: BenchUser[]): Promise<void> {
  for (let i = 0; i < members.length; i += PRINCIPALS_PER_REQUEST) {
    const principals = members.slice(i, i + PRINCIPALS_PER_REQUEST).map((u) => u.id);
    const r = await http.call("POST", "/api/v1/users/me/subscriptions", { subscriptions: [{ name }], principals }, { headers: authHeaders(owner) });
    if (r.status !== 200) throw new Error(`S12 channel ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** `parley`: the server to run against (the big store's single process by default; S14 passes a cluster). */
export async function runFor(ctx: Context, n: number, parley: { port: number; pid: number } = ctx.big.parley): Promise<Row> {
  // Every process of the server: a cluster's primary and workers.
  const pids = () => processTree(parley.pid);
  const [owner, sender] = [ctx.org.users[ROLES.owner], ctx.org.users[ROLES.sender]];
  const members = pollingUsers(ctx.org, ctx.opts.sizes.shape).slice(0, n);
  const channel = `s12-${n}-${Date.now()}`;
  const http = new HttpClient(parley.port, n + 8);
  const pollers = members.map((u) => new Poller(http, u));
  // The sender is a client of its own, on its own thread (sender-thread.ts): its answer is not
  // queued behind the N poll answers this process handles.
  const senderThread = new SenderThread(parley.port);
  try {
    await createChannel(http, owner, channel, [sender, ...members]);
    await registerAll(pollers, ["message"]);
    const send = async (content: string): Promise<number> => {
      const r = await senderThread.post("/api/v1/messages", { type: "stream", to: channel, topic: "s12", content }, authHeaders(sender));
      if (r.status !== 200) throw new Error(`S12 send: ${r.status} ${r.text.slice(0, 200)}`);
      return r.ms;
    };

    // Steady: one message at a time.
    const senderMs: number[] = [];
    const rounds: Round[] = [];
    const ready = () => waitForIdle(pids(), ctx.opts.sizes.quietMs, SETTLE_MAX_MS);
    for (let i = 0; i < Math.max(STEADY_ROUNDS, ctx.opts.sizes.deliveryRounds); i++) {
      const nonce = `s12-${i}-${Date.now()}`;
      const match = (e: Record<string, any>) => e.type === "message" && String(e.message?.content).includes(nonce); // eslint-disable-line @typescript-eslint/no-explicit-any
      rounds.push(await deliveryRound(pollers, match, async () => void senderMs.push(await send(nonce)), { ready, timeoutMs: DELIVERY_TIMEOUT_MS }));
    }
    const steady = merge(rounds);
    senderMs.sort((a, b) => a - b);

    // Saturated: back-to-back sends while everyone keeps polling.
    const stopPolling = sharedAbort();
    const receivedBefore = pollers.reduce((s, p) => s + p.received, 0);
    const draining = Promise.all(pollers.map((p) => p.drain(stopPolling.signal)));
    draining.catch(() => undefined); // awaited below
    await ready();
    const cpuBefore = treeCpu(parley.pid);
    const started = performance.now();
    let sent = 0;
    while (performance.now() - started < ctx.opts.sizes.seconds * 1000) {
      await send(`saturated ${sent}`);
      sent++;
    }
    const sendSeconds = (performance.now() - started) / 1000;
    // Deliveries still under way when the sending stops are counted until the server is idle.
    await waitForIdle(pids(), ctx.opts.sizes.quietMs, SETTLE_MAX_MS);
    const seconds = (performance.now() - started) / 1000;
    const cpu = treeCpu(parley.pid) - cpuBefore;
    const rss = treeRss(parley.pid);
    stopPolling.abort();
    await draining;
    const deliveries = pollers.reduce((s, p) => s + p.received, 0) - receivedBefore;
    const perSecond = deliveries / seconds;

    const p50 = quantile(steady.latencies, 0.5);
    const p99 = quantile(steady.latencies, 0.99);
    const senderP50 = quantile(senderMs, 0.5);
    const target = TARGETS[n];
    const checks: string[] = [];
    let pass = steady.missing === 0 && deliveries === sent * n;
    if (target?.p99Ms !== undefined) {
      checks.push(`p99 ≤ ${target.p99Ms} ms`);
      pass &&= p99 <= target.p99Ms;
    }
    if (target?.senderP50Ms !== undefined) {
      checks.push(`sender p50 < ${target.senderP50Ms} ms`);
      pass &&= senderP50 < target.senderP50Ms;
    }
    if (target) {
      checks.push(`≥ ${target.deliveriesPerSecond.toLocaleString("en-US")} deliveries/s`);
      pass &&= perSecond >= target.deliveriesPerSecond;
    }
    return {
      id: `S12/${n}`,
      rps: perSecond,
      p50,
      p99,
      baseline: `N = ${n}; sender p50 ${senderP50.toFixed(1)} ms`,
      ratio: null,
      target: target ? checks.join("; ") : "all delivered; numbers reported",
      pass: target ? pass : steady.missing === 0 && deliveries === sent * n,
      note:
        `N = ${n}: steady ${steady.latencies.length} deliveries (${steady.missing} missing), delivery p50 ${p50.toFixed(1)} / p99 ${p99.toFixed(1)} ms, ` +
        `sender p50 ${senderP50.toFixed(1)} / p99 ${quantile(senderMs, 0.99).toFixed(1)} ms; saturated ${sent} messages in ${sendSeconds.toFixed(1)} s ` +
        `(${(sent / sendSeconds).toFixed(0)}/s accepted), ${deliveries} of ${sent * n} deliveries in ${seconds.toFixed(1)} s = ${perSecond.toFixed(0)}/s, ` +
        `server CPU ${((cpu / Math.max(1, deliveries)) * 1e6).toFixed(1)} µs per delivery, RSS ${rss.toFixed(0)} MiB`,
      load: loadAverage(),
    };
  } finally {
    http.close();
    await senderThread.close();
  }
}

/** S12 rows: N = 200 and 1,000 in a full run, the quick sizes' pollers otherwise. */
export async function s12(ctx: Context): Promise<Row[]> {
  const available = ctx.opts.sizes.shape.pollers;
  const sizes = ctx.opts.quick ? [available] : [200, 1000].filter((n) => n <= available);
  const rows: Row[] = [];
  for (const n of sizes) rows.push(await runFor(ctx, n));
  return rows;
}
