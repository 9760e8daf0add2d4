/**
 * GET /api/v1/events on the HTTP server's own request callback, before Fastify (issue 21, item 4:
 * "a long-poll re-request must cost far less than a full API request"). Every client re-issues
 * this request after each answer, so with N clients online a message costs N of them: through the
 * framework each paid for a request and reply object, routing, the hook chain, the generic
 * parameter table and the reply pipeline, which made a delivery cost about as much CPU as a whole
 * GET /users/me. Here the request runs the same steps the endpoint does (api/events.ts getEvents):
 * the same authentication, rate limit, queue access, long-poll and answer envelope, the same
 * security headers, request id, log line and metrics, only without the framework in between.
 *
 * It takes only the plain, well-formed request every client sends (queue_id, optional
 * last_event_id and dont_block in their canonical spellings, no body) for a queue this process
 * holds, or relayed to the worker holding it (http/forwarded-poll.ts); anything else — an unusual
 * spelling, an extra parameter, a server that is closing — goes to Fastify's route, which answers as always. So
 * nothing a client can send gets a different answer here than there: errors thrown on the way
 * (401, 429, BAD_EVENT_QUEUE_ID, a store outage) are answered as the error handler answers them
 * (error-handler.ts `errorAnswer`). test/http/events-long-poll.test.ts compares the two paths.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import proxyAddr from "@fastify/proxy-addr";
import type { FastifyBaseLogger } from "fastify";
import { accessQueue, doGetEvents } from "../actions/events.js";
import type { AppDeps } from "../deps.js";
import { eventsJson } from "../events/queue.js";
import { stringifyWithJsonText } from "../lib/json-text.js";
import { authenticateApiKey, parseBasicAuth } from "./auth.js";
import { errorAnswer } from "./error-handler.js";
import { relayPollToOwner } from "./forwarded-poll.js";
import { setSecurityHeaders } from "./hardening.js";
import { subdomainFromHost } from "./realm-host.js";
import { requestIdFor, writeRequestLine, type RequestNotes } from "./request-log.js";
import { admitUser, API_PREFIX } from "./router.js";

const PATH = `${API_PREFIX}/events?`;
const ROUTE = `${API_PREFIX}/events`;
const JSON_TYPE = "application/json; charset=utf-8";
/** last_event_id as clients send it (an integer, -1 for "none yet"); anything else goes the long way. */
const CANONICAL_INT = /^(?:0|-?[1-9][0-9]{0,14})$/;

/**
 * A query value decoded as a form (what Fastify's parser does): '+' is a space, %XX escapes are
 * UTF-8. Queue ids contain ':', which clients send as %3A. Null for a malformed escape.
 */
function decodeValue(raw: string): string | null {
  if (!raw.includes("%") && !raw.includes("+")) return raw;
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    return null;
  }
}

interface PollRequest {
  queueId: string;
  lastEventId: number | undefined;
  dontBlock: boolean;
}

/** The query of a plain long-poll, or null when it is anything else (Fastify then answers it). */
export function plainPollQuery(search: string): PollRequest | null {
  let queueId: string | undefined;
  let lastEventId: number | undefined;
  let dontBlock: boolean | undefined;
  for (const pair of search.split("&")) {
    const eq = pair.indexOf("=");
    if (eq < 0) return null;
    const name = pair.slice(0, eq);
    const raw = decodeValue(pair.slice(eq + 1));
    if (raw === null) return null;
    if (name === "queue_id" && queueId === undefined && raw !== "") queueId = raw;
    else if (name === "last_event_id" && lastEventId === undefined && CANONICAL_INT.test(raw)) lastEventId = Number(raw);
    else if (name === "dont_block" && dontBlock === undefined && (raw === "true" || raw === "false")) dontBlock = raw === "true";
    else return null;
  }
  return queueId === undefined ? null : { queueId, lastEventId, dontBlock: dontBlock ?? false };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface LongPollPath {
  /**
   * Serves the request and returns true, or returns false and leaves it untouched. `fallback`
   * (Fastify's handler) answers a relayed poll whose owner could not be reached.
   */
  take(req: IncomingMessage, res: ServerResponse, fallback: Handler): boolean;
  /** From now on every request goes to Fastify (which answers 503 while it closes). */
  close(): void;
}

export function longPollPath(deps: AppDeps, log: () => FastifyBaseLogger, observe: ((method: string, route: string, status: number, seconds: number) => void) | null): LongPollPath {
  let closing = false;
  // The client's address for the log line, as Fastify's request.ip finds it (TRUSTED_PROXIES).
  const proxies = deps.config.trustedProxies;
  const trust = proxies.length > 0 ? proxyAddr.compile(proxies) : null;
  const clientAddress = (req: IncomingMessage) => (trust ? proxyAddr(req, trust) : (req.socket.remoteAddress ?? ""));
  return {
    close() {
      closing = true;
    },
    take(req, res, fallback) {
      if (closing || req.method !== "GET") return false;
      const url = req.url;
      if (url === undefined || !url.startsWith(PATH)) return false;
      const headers = req.headers;
      if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return false;
      const poll = plainPollQuery(url.slice(PATH.length));
      if (poll === null) return false;
      // A queue this process holds, or one a running worker holds (relayed to it as it came);
      // the endpoint answers BAD_EVENT_QUEUE_ID for any other.
      if (deps.queues.get(poll.queueId) === undefined) {
        const port = deps.queueOwners?.ownerPort(poll.queueId);
        if (port === undefined) return false;
        const started = process.hrtime.bigint();
        const requestId = requestIdFor(req);
        relayPollToOwner(port, req, res, requestId, fallback, (status) => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          observe?.("GET", ROUTE, status, ms / 1000);
          // The owner's own line names the user; this worker only relayed.
          writeRequestLine(log(), { method: "GET", route: ROUTE, url, status, ms, notes: {}, ip: () => clientAddress(req) }, requestId);
        });
        return true;
      }
      serve(deps, req, res, poll, log, observe, clientAddress).catch((err: unknown) => {
        // Only writing the answer or its log line can fail here; the request's own errors are answered above.
        log().error({ err }, "long-poll answer failed");
        res.destroy();
      });
      return true;
    },
  };
}

async function serve(
  deps: AppDeps,
  req: IncomingMessage,
  res: ServerResponse,
  poll: PollRequest,
  log: () => FastifyBaseLogger,
  observe: ((method: string, route: string, status: number, seconds: number) => void) | null,
  clientAddress: (req: IncomingMessage) => string,
): Promise<void> {
  const started = process.hrtime.bigint();
  const requestId = requestIdFor(req);
  setSecurityHeaders(res, requestId);
  const notes: RequestNotes = {};
  let status = 200;
  let body: string;
  try {
    const subdomain = subdomainFromHost(req.headers.host, deps.config.externalHost);
    const { user, realm } = await authenticateApiKey(deps.store, parseBasicAuth(req.headers.authorization), subdomain);
    notes.userId = user.id;
    notes.realmId = realm.id;
    notes.realm = realm.string_id;
    const limits = await admitUser(deps, user, false);
    if (limits) for (const name in limits) res.setHeader(name, limits[name]);
    const queue = accessQueue(deps, user, poll.queueId);
    const events = await doGetEvents(deps, queue, poll.lastEventId, poll.dontBlock, (cancel) => res.once("close", cancel));
    body = stringifyWithJsonText({ result: "success", msg: "", events: eventsJson(events), queue_id: queue.id });
  } catch (thrown) {
    const answer = errorAnswer(thrown);
    if (answer.unexpected) log().child({ reqId: requestId }).error({ err: thrown }, "unhandled error");
    notes.errorCode = answer.unexpected ? "INTERNAL_SERVER_ERROR" : answer.body.code;
    status = answer.status;
    for (const name in answer.headers) res.setHeader(name, answer.headers[name]);
    body = JSON.stringify(answer.body);
  }
  if (!res.destroyed) {
    res.statusCode = status;
    res.setHeader("content-type", JSON_TYPE);
    res.setHeader("content-length", Buffer.byteLength(body));
    res.end(body);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  observe?.("GET", ROUTE, status, ms / 1000);
  writeRequestLine(log(), { method: "GET", route: ROUTE, url: req.url ?? "", status, ms, notes, ip: () => clientAddress(req) }, requestId);
}
