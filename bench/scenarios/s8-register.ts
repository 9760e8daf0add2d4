/** S8: POST /register (the full initial state) for a member of the 5,000-user, 500-channel org. */
import type { Context } from "../lib/context.js";
import { formatInt, type Row } from "../lib/report.js";
import { ROLES, type BenchOrg } from "../lib/seed.js";
import { aloneAndBusy, busyNote, type ApiRequest } from "./requests.js";

/** What a current mobile client declares (smaller payloads where the client allows it). */
export const CAPABILITIES = {
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

export async function s8(ctx: Context): Promise<Row[]> {
  const { alone, busy } = await aloneAndBusy(ctx, ctx.big, registerRequest(ctx.org));
  const { users, channels } = ctx.opts.sizes.shape;
  return [
    {
      id: "S8",
      rps: busy.rps,
      p50: alone.p50,
      p99: alone.p99,
      baseline: "-",
      ratio: null,
      target: "p50 < 50 ms",
      pass: alone.p50 < 50 && alone.failed + busy.failed === 0,
      note: `${formatInt(users)} users, ${channels} channels, every event type; ${busyNote(busy)}; ${alone.failed + busy.failed} failed`,
      load: alone.load,
    },
  ];
}
