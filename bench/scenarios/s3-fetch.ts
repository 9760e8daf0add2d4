/**
 * S3: GET /messages, the newest 100 of a channel+topic narrow in a store of 1M messages, against
 * Bstore (the same reads replayed through the driver). S4: the same request on the 10k-message
 * store, sequentially and interleaved with the 1M store, so the p50s compare like with like.
 */
import type { Context } from "../lib/context.js";
import { HttpClient, quantile } from "../lib/http.js";
import { interleaved, loadAverage } from "../lib/measure.js";
import { formatInt, type Row } from "../lib/report.js";
import { BUSY_TOPIC, ROLES, type BenchOrg } from "../lib/seed.js";
import { aloneAndBusy, bstoreNote, bstoreText, storeBaseline, timed, type ApiRequest } from "./requests.js";

export function fetchNewest(org: BenchOrg, narrow: Array<{ operator: string; operand: string }>): ApiRequest {
  return { method: "GET", path: "/messages", params: { anchor: "newest", num_before: 100, num_after: 0, narrow }, user: org.users[ROLES.reader] };
}

export const topicNarrow = (org: BenchOrg) => fetchNewest(org, [{ operator: "channel", operand: org.generic[0].name }, { operator: "topic", operand: BUSY_TOPIC }]);

export async function s3(ctx: Context): Promise<Row[]> {
  const fetch = topicNarrow(ctx.org);
  const bstore = await storeBaseline(ctx, ctx.big, fetch, false);
  const m = await aloneAndBusy(ctx, ctx.big, fetch);
  const ratio = m.busy.rps / bstore.rps;
  return [
    {
      id: "S3",
      rps: m.busy.rps,
      p50: m.alone.p50,
      p99: m.alone.p99,
      baseline: bstoreText(bstore),
      ratio,
      target: "≥ 0.40 × Bstore; p99 < 20 ms",
      pass: ratio >= 0.4 && m.alone.p99 < 20 && m.alone.failed + m.busy.failed === 0,
      note: `${formatInt(ctx.opts.sizes.bigHistory)} messages; ${bstoreNote(bstore, m)}`,
      load: m.alone.load,
    },
  ];
}

export async function s4(ctx: Context): Promise<Row[]> {
  const fetch = topicNarrow(ctx.org);
  const clients = [new HttpClient(ctx.big.parley.port, 1), new HttpClient(ctx.small.parley.port, 1)];
  try {
    const warm = Math.max(5, Math.floor(ctx.opts.sizes.s4Rounds / 10));
    await interleaved(clients.map((c) => timed(fetch, c)), warm);
    const [big, small] = await interleaved(clients.map((c) => timed(fetch, c)), ctx.opts.sizes.s4Rounds);
    const p50 = (xs: number[]) => quantile(xs, 0.5);
    const p99 = (xs: number[]) => quantile(xs, 0.99);
    const ratio = p50(big) / p50(small);
    const { bigHistory, smallHistory } = ctx.opts.sizes;
    return [
      {
        id: "S4",
        rps: null,
        p50: p50(big),
        p99: p99(big),
        baseline: `${formatInt(smallHistory)} msgs p50 ${p50(small).toFixed(2)} ms`,
        ratio,
        target: "p50 ratio ≤ 1.5",
        pass: ratio <= 1.5,
        note: `S3's request one at a time, alternating between the ${formatInt(bigHistory)}- and ${formatInt(smallHistory)}-message stores, ${big.length} each (p99 on the small store ${p99(small).toFixed(2)} ms)`,
        load: loadAverage(),
      },
    ];
  } finally {
    for (const c of clients) c.close();
  }
}
