/** S8: POST /register (the full initial state) for a member of the 5,000-user, 500-channel org. */
import type { Context } from "../lib/context.js";
import { formatInt, type Row } from "../lib/report.js";
import { ROLES, type BenchOrg } from "../lib/seed.js";
import { loadParley, type ApiRequest } from "./requests.js";

/** What a current mobile client declares (smaller payloads where the client allows it). */
const CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  empty_topic_name: true,
  simplified_presence_events: true,
};

/** The registrant's POST /register with every event type. */
export const registerRequest = (org: BenchOrg): ApiRequest => ({
  method: "POST",
  path: "/register",
  params: { apply_markdown: true, client_gravatar: true, slim_presence: true, client_capabilities: CAPABILITIES },
  user: org.users[ROLES.registrant],
});

/**
 * The target is how long one register takes, so it is timed one at a time (one connection): Parley
 * serves requests on one thread, and at n connections a p50 is about n registers' work, a
 * queueing figure. Throughput is then measured at the store-bound scenarios' four connections
 * and reported in the note.
 */
export async function s8(ctx: Context): Promise<Row[]> {
  const one = await loadParley(ctx, ctx.big, registerRequest(ctx.org), 1);
  const four = await loadParley(ctx, ctx.big, registerRequest(ctx.org));
  const { users, channels } = ctx.opts.sizes.shape;
  return [
    {
      id: "S8",
      rps: one.rps,
      p50: one.p50,
      p99: one.p99,
      baseline: "-",
      ratio: null,
      target: "p50 < 50 ms",
      pass: one.p50 < 50 && one.failed + four.failed === 0,
      note:
        `${formatInt(users)} users, ${channels} channels, every event type, one connection; Parley CPU ${one.cpuUs.toFixed(0)} µs/request; ` +
        `at 4 connections ${formatInt(four.rps)}/s, p50 ${four.p50} ms, p99 ${four.p99} ms; ${one.failed + four.failed} failed`,
      load: one.load,
    },
  ];
}
