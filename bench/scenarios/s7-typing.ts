/**
 * S7: POST /typing (start) to a 10-person group DM at 50 connections while all ten participants
 * long-poll for typing events, against B0 measured just before.
 */
import { PIPELINE_CONNECTIONS, type Context } from "../lib/context.js";
import { HttpClient } from "../lib/http.js";
import { loadTest } from "../lib/measure.js";
import { Poller, registerAll, sharedAbort } from "../lib/pollers.js";
import type { Row } from "../lib/report.js";
import { ROLES, type BenchOrg, type BenchUser } from "../lib/seed.js";
import { loadSpec, type ApiRequest } from "./requests.js";
import { b0Text, measureB0 } from "./s1-users-me.js";

const GROUP_SIZE = 10;

/** The ten people of the group DM, and the first one's typing notification to the others. */
export function typingGroup(org: BenchOrg): { group: BenchUser[]; typing: ApiRequest } {
  const group = org.users.slice(ROLES.typist, ROLES.typist + GROUP_SIZE);
  return { group, typing: { method: "POST", path: "/typing", params: { type: "direct", op: "start", to: group.slice(1).map((u) => u.id) }, user: group[0] } };
}

export async function s7(ctx: Context): Promise<Row[]> {
  const { seconds, warmupSeconds } = ctx.opts.sizes;
  const { group, typing } = typingGroup(ctx.org);
  const parley = ctx.big.parley;
  const http = new HttpClient(parley.port, GROUP_SIZE);
  const pollers = group.map((u) => new Poller(http, u));
  const stopPolling = sharedAbort();
  try {
    await registerAll(pollers, ["typing"]);
    const draining = Promise.all(pollers.map((p) => p.drain(stopPolling.signal)));
    draining.catch(() => undefined); // awaited below
    const b0 = await measureB0(ctx);
    const m = await loadTest(loadSpec(typing, parley.port, PIPELINE_CONNECTIONS), seconds, warmupSeconds, parley.pid);
    stopPolling.abort();
    await draining;
    const received = pollers.reduce((n, p) => n + p.received, 0);
    const polls = pollers.reduce((n, p) => n + p.polls, 0);
    const ratio = m.rps / b0.rps;
    return [
      {
        id: "S7",
        rps: m.rps,
        p50: m.p50,
        p99: m.p99,
        baseline: b0Text(b0),
        ratio,
        target: "≥ 0.30 × B0 req/s",
        pass: ratio >= 0.3 && m.failed === 0,
        note: `${received} typing events reached the ${GROUP_SIZE} pollers in ${polls} polls (warm-up included); Parley CPU ${m.cpuUs.toFixed(0)} µs/request; ${m.failed} failed`,
        load: m.load,
      },
    ];
  } finally {
    stopPolling.abort();
    http.close();
  }
}
