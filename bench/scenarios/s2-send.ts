/**
 * S2: POST /messages to a channel with 100 subscribers (a typical message: a mention, a link, an
 * emoji), against Bstore: the same write transaction's SQL replayed through the driver.
 */
import type { Context } from "../lib/context.js";
import type { Row } from "../lib/report.js";
import { ROLES, type BenchOrg } from "../lib/seed.js";
import { aloneAndBusy, bstoreNote, bstoreText, storeBaseline, type ApiRequest } from "./requests.js";

export const TYPICAL_CONTENT =
  "Hey @**User 7**, the deploy notes for build 1234 are at https://docs.example.com/deploys/2024-05 — can you take a look before standup? :thumbs_up:";

/** The sender's typical message to "hundred". */
export const sendToHundred = (org: BenchOrg): ApiRequest => ({
  method: "POST",
  path: "/messages",
  params: { type: "stream", to: org.hundred.name, topic: "bench", content: TYPICAL_CONTENT },
  user: org.users[ROLES.sender],
});

export async function s2(ctx: Context): Promise<Row[]> {
  const send = sendToHundred(ctx.org);
  const bstore = await storeBaseline(ctx, ctx.big, send, true);
  const m = await aloneAndBusy(ctx, ctx.big, send);
  const ratio = m.busy.rps / bstore.rps;
  return [
    {
      id: "S2",
      rps: m.busy.rps,
      p50: m.alone.p50,
      p99: m.alone.p99,
      baseline: bstoreText(bstore),
      ratio,
      target: "≥ 0.40 × Bstore; p99 < 20 ms",
      pass: ratio >= 0.4 && m.alone.p99 < 20 && m.alone.failed + m.busy.failed === 0,
      note: bstoreNote(bstore, m),
      load: m.alone.load,
    },
  ];
}
