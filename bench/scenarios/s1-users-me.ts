/** S1: GET /users/me at 50 connections against B0, a bare Fastify answering a constant JSON body. */
import { authHeaders, PIPELINE_CONNECTIONS, type Context } from "../lib/context.js";
import { loadTest, type Measurement } from "../lib/measure.js";
import { formatInt, type Row } from "../lib/report.js";
import { ROLES } from "../lib/seed.js";

/** B0, measured next to each scenario compared with it so both see the same machine load. */
export async function measureB0(ctx: Context): Promise<Measurement> {
  const { seconds, warmupSeconds } = ctx.opts.sizes;
  return loadTest({ port: ctx.b0.port, path: "/hello", connections: PIPELINE_CONNECTIONS }, seconds, warmupSeconds, ctx.b0.pid);
}

export const b0Text = (b0: Measurement) => `B0 ${formatInt(b0.rps)}/s`;

export async function s1(ctx: Context): Promise<Row[]> {
  const { seconds, warmupSeconds } = ctx.opts.sizes;
  const b0 = await measureB0(ctx);
  const parley = ctx.big.parley;
  const m = await loadTest(
    { port: parley.port, path: "/api/v1/users/me", headers: authHeaders(ctx.org.users[ROLES.me]), connections: PIPELINE_CONNECTIONS },
    seconds,
    warmupSeconds,
    parley.pid,
  );
  const ratio = m.rps / b0.rps;
  return [
    {
      id: "S1",
      rps: m.rps,
      p50: m.p50,
      p99: m.p99,
      baseline: b0Text(b0),
      ratio,
      target: "≥ 0.50 × B0 req/s",
      pass: ratio >= 0.5 && m.failed === 0,
      note: `Parley CPU ${m.cpuUs.toFixed(0)} µs/request, B0 CPU ${b0.cpuUs.toFixed(0)} µs/request; ${m.failed} failed`,
      load: m.load,
    },
  ];
}
