/**
 * Tail latency with ten clients at once (issue 21 item 3): S15 is S2's send (a mention, a link, an
 * emoji to "hundred", 100 subscribers) from 10 connections, S16 S3's fetch (the newest 100 of
 * channel-0's busy topic, 1M store) from 10 connections; target p99 < 20 ms for both. One process
 * serves requests on one thread, so a request also waits for the ones ahead of it: the note gives
 * the server's CPU per request and ten times it, the wait a request meets behind nine others when
 * nothing else runs (docs/PERFORMANCE.md, "Tail latency at ten clients").
 */
import type { Context } from "../lib/context.js";
import type { Measurement } from "../lib/measure.js";
import { formatInt, type Row } from "../lib/report.js";
import { loadParley, type ApiRequest } from "./requests.js";
import { sendToHundred } from "./s2-send.js";
import { topicNarrow } from "./s3-fetch.js";

export const CONCURRENT_CLIENTS = 10;

function row(id: string, m: Measurement, what: string): Row {
  const queued = (m.cpuUs * CONCURRENT_CLIENTS) / 1000;
  return {
    id,
    rps: m.rps,
    p50: m.p50,
    p99: m.p99,
    baseline: "-",
    ratio: null,
    target: "p99 < 20 ms",
    pass: m.p99 < 20 && m.failed === 0,
    note:
      `${what} from ${CONCURRENT_CLIENTS} connections; Parley CPU ${m.cpuUs.toFixed(0)} µs/request ` +
      `(× ${CONCURRENT_CLIENTS} = ${queued.toFixed(1)} ms behind nine others); ${formatInt(m.requests)} requests, ${m.failed} failed`,
    load: m.load,
  };
}

async function concurrent(ctx: Context, id: string, r: ApiRequest, what: string): Promise<Row[]> {
  return [row(id, await loadParley(ctx, ctx.big, r, CONCURRENT_CLIENTS), what)];
}

export const s15 = (ctx: Context) => concurrent(ctx, "S15", sendToHundred(ctx.org), "POST /messages to 100 subscribers");
export const s16 = (ctx: Context) => concurrent(ctx, "S16", topicNarrow(ctx.org), `GET /messages newest 100 (${formatInt(ctx.opts.sizes.bigHistory)}-message store)`);
