/** Real-time events: POST /register, GET /events, DELETE /events (zulip-facts section f). */
import { accessQueue, badEventQueueId, doGetEvents, doRegister } from "../actions/events.js";
import type { UserContext } from "../http/endpoint.js";
import { relayForwardedAnswer } from "../http/forwarded-answer.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { invalidParam } from "../errors.js";
import { includeSubscribersParam } from "./channel-params.js";
import * as v from "../lib/validate.js";
import { parseClientCapabilities } from "../events/capabilities.js";
import { MAX_QUEUE_IDLE_TIMEOUT_SECONDS, MOBILE_QUEUE_IDLE_TIMEOUT_SECONDS } from "../events/registry.js";
import { eventsJson } from "../events/queue.js";

const narrowTerm = v.oneOf<{ operator: string; operand: string | number | number[] }>(
  (value, name) => {
    const [operator, operand] = v.listOf(v.oneOf<string | number>(v.str, v.int))(value, name);
    if (typeof operator !== "string" || operand === undefined) throw invalidParam(`${name} is not a narrow term`);
    return { operator, operand };
  },
  v.object({
    operator: v.field(v.str),
    operand: v.field(v.oneOf<string | number | number[]>(v.str, v.int, v.listOf(v.int))),
    negated: v.optionalField(v.bool),
  }),
);

/**
 * idle_queue_timeout (FL 481): seconds without a poll before the queue is collected, or "mobile"
 * for Zulip's mobile default of 12 hours; never more than 7 days. Sent as JSON (`600`, `"mobile"`).
 */
const idleQueueTimeout: v.Validator<number> = (value, name) => {
  if (value === "mobile") return MOBILE_QUEUE_IDLE_TIMEOUT_SECONDS;
  const seconds = v.int(value, name);
  if (seconds <= 0) throw invalidParam(`Invalid ${name}`);
  return Math.min(seconds, MAX_QUEUE_IDLE_TIMEOUT_SECONDS);
};

export const register = endpoint({
  method: "POST",
  path: "/register",
  auth: "user",
  params: {
    apply_markdown: p.bool().default(false),
    client_gravatar: p.bool().default(true),
    include_subscribers: includeSubscribersParam(),
    slim_presence: p.bool().default(false),
    event_types: p.json(v.nullable(v.listOf(v.str))).optional(),
    fetch_event_types: p.json(v.nullable(v.listOf(v.str))).optional(),
    all_public_streams: p.bool().default(false),
    client_capabilities: p.json(parseClientCapabilities).default({}),
    narrow: p.json(v.listOf(narrowTerm)).default([]),
    idle_queue_timeout: p.json(idleQueueTimeout).optional(),
    presence_history_limit_days: p.int().optional().check((days, name) => {
      if (days !== undefined && days < 0) throw invalidParam(`${name} is too small`);
      return days;
    }),
  },
  async handler(ctx, params) {
    return doRegister(ctx.deps, ctx.realm, ctx.user, {
      eventTypes: params.event_types ?? null,
      fetchEventTypes: params.fetch_event_types ?? null,
      narrow: params.narrow,
      allPublicStreams: params.all_public_streams,
      applyMarkdown: params.apply_markdown,
      clientGravatar: params.client_gravatar,
      includeSubscribers: params.include_subscribers !== "false",
      slimPresence: params.slim_presence,
      capabilities: params.client_capabilities,
      idleQueueTimeoutSeconds: params.idle_queue_timeout,
      presenceHistoryDays: params.presence_history_limit_days,
      stamp: ctx.stamp,
    });
  },
});

export const getEvents = endpoint({
  method: "GET",
  path: "/events",
  auth: "user",
  params: {
    queue_id: p.str(),
    last_event_id: p.int().optional(),
    dont_block: p.bool().default(false),
  },
  async handler(ctx, params) {
    const query: Record<string, string> = { queue_id: params.queue_id, dont_block: String(params.dont_block) };
    if (params.last_event_id !== undefined) query.last_event_id = String(params.last_event_id);
    const forwarded = await forwardToQueueOwner(ctx, "GET", params.queue_id, query);
    if (forwarded) return forwarded;
    const queue = accessQueue(ctx.deps, ctx.user, params.queue_id);
    const events = await doGetEvents(ctx.deps, queue, params.last_event_id, params.dont_block, (cancel) =>
      ctx.reply.raw.once("close", cancel),
    );
    // Serialised once per shared event, not once per poll (events/queue.ts).
    return { events: eventsJson(events), queue_id: queue.id };
  },
});

export const deleteQueue = endpoint({
  method: "DELETE",
  path: "/events",
  auth: "user",
  params: { queue_id: p.str() },
  async handler(ctx, { queue_id }) {
    const forwarded = await forwardToQueueOwner(ctx, "DELETE", queue_id, { queue_id });
    if (forwarded) return forwarded;
    accessQueue(ctx.deps, ctx.user, queue_id);
    ctx.deps.queues.delete(queue_id);
    return {};
  },
});

/**
 * With several workers (WORKERS > 1), a queue held by another worker is polled or deleted there:
 * the request goes on to its owner and the answer comes back as it is (cluster/queue-forwarding.ts).
 * Null: the queue is this process's.
 */
async function forwardToQueueOwner(ctx: UserContext, method: "GET" | "DELETE", queueId: string, query: Record<string, string>): Promise<{ raw: true } | null> {
  const owners = ctx.deps.queueOwners;
  if (!owners) return null;
  const answer = await owners.forward(queueId, method, query, ctx.request.headers, (cancel) => ctx.reply.raw.once("close", cancel));
  if (answer === "local") return null;
  if (answer === "lost") throw badEventQueueId(queueId);
  return relayForwardedAnswer(ctx.reply, answer);
}

export const eventEndpoints = [register, getEvents, deleteQueue];
