/** S5: a `search` narrow over the reader's whole history (every one of the 1M messages). */
import type { Context } from "../lib/context.js";
import { formatInt, type Row } from "../lib/report.js";
import { SEARCH_WORD } from "../lib/seed.js";
import { fetchNewest } from "./s3-fetch.js";
import { loadParley } from "./requests.js";

export async function s5(ctx: Context): Promise<Row[]> {
  const m = await loadParley(ctx, ctx.big, fetchNewest(ctx.org, [{ operator: "search", operand: SEARCH_WORD }]));
  return [
    {
      id: "S5",
      rps: m.rps,
      p50: m.p50,
      p99: m.p99,
      baseline: "-",
      ratio: null,
      target: "p50 < 50 ms",
      pass: m.p50 < 50 && m.failed === 0,
      note: `newest 100 of the messages containing "${SEARCH_WORD}" (about 0.7% of ${formatInt(ctx.opts.sizes.bigHistory)}); Parley CPU ${m.cpuUs.toFixed(0)} µs/request; ${m.failed} failed`,
      load: m.load,
    },
  ];
}
