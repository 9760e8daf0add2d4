/**
 * The requests bench/request-costs.ts prices: each scenario's request as the load tests send it,
 * plus GET /events on a queue with an event waiting (the poll a fan-out wakes). The typing
 * group registers queues first, so S7's request fans out to ten queues as in the benchmark.
 */
import type { FastifyInstance, InjectOptions } from "fastify";
import { authHeaders } from "./context.js";
import { formEncode } from "./http.js";
import { ROLES, SEARCH_WORD, type BenchOrg, type BenchUser } from "./seed.js";
import { injectOptions } from "../scenarios/requests.js";
import { sendToHundred } from "../scenarios/s2-send.js";
import { fetchNewest, topicNarrow } from "../scenarios/s3-fetch.js";
import { typingGroup } from "../scenarios/s7-typing.js";
import { registerRequest } from "../scenarios/s8-register.js";

export interface CostRequest {
  id: string;
  label: string;
  inject: InjectOptions;
}

async function register(app: FastifyInstance, host: string, user: BenchUser, eventTypes: string[]): Promise<{ queue_id: string; last_event_id: number }> {
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/register",
    headers: { host, ...authHeaders(user), "content-type": "application/x-www-form-urlencoded" },
    payload: formEncode({ event_types: eventTypes }),
  });
  if (res.statusCode !== 200) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function costRequests(app: FastifyInstance, org: BenchOrg, host: string): Promise<CostRequest[]> {
  const { group, typing } = typingGroup(org);
  for (const u of group) await register(app, host, u, ["typing"]);
  // A queue that always has one event past last_event_id, so the poll returns at once (the
  // reader is in none of the conversations the other requests write to: the queue stays as it is).
  const poller = org.users[ROLES.reader];
  const queue = await register(app, host, poller, ["message"]);
  const send = sendToHundred(org);
  const dm = injectOptions({ ...send, params: { type: "direct", to: [poller.id], content: "hello" } });
  await app.inject({ ...dm, headers: { ...dm.headers, host } });
  const events = `/api/v1/events?${formEncode({ queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true })}`;
  return [
    { id: "S1", label: "GET /users/me", inject: { method: "GET", url: "/api/v1/users/me", headers: authHeaders(org.users[ROLES.me]) } },
    { id: "S2", label: "POST /messages (100 subs)", inject: injectOptions(send) },
    { id: "S3", label: "GET /messages topic", inject: injectOptions(topicNarrow(org)) },
    { id: "S5", label: "GET /messages search", inject: injectOptions(fetchNewest(org, [{ operator: "search", operand: SEARCH_WORD }])) },
    { id: "S7", label: "POST /typing (10 queues)", inject: injectOptions(typing) },
    { id: "S8", label: "POST /register", inject: injectOptions(registerRequest(org)) },
    { id: "E", label: "GET /events (1 waiting)", inject: { method: "GET", url: events, headers: authHeaders(poller) } },
  ];
}
