/** S5: a `search` narrow over the reader's whole history (every one of the 1M messages). */
import type { Context } from "../lib/context.js";
import { formatInt, type Row } from "../lib/report.js";
import { SEARCH_WORD } from "../lib/seed.js";
import { fetchNewest } from "./s3-fetch.js";
import { aloneAndBusy, busyNote } from "./requests.js";

export async function s5(ctx: Context): Promise<Row[]> {
  const { alone, busy } = await aloneAndBusy(ctx, ctx.big, fetchNewest(ctx.org, [{ operator: "search", operand: SEARCH_WORD }]));
  return [
    {
      id: "S5",
      rps: busy.rps,
      p50: alone.p50,
      p99: alone.p99,
      baseline: "-",
      ratio: null,
      target: "p50 < 50 ms",
      pass: alone.p50 < 50 && alone.failed + busy.failed === 0,
      note: `newest 100 of the messages containing "${SEARCH_WORD}" (about 0.7% of ${formatInt(ctx.opts.sizes.bigHistory)}); ${busyNote(busy)}; ${alone.failed + busy.failed} failed`,
      load: alone.load,
    },
  ];
}
