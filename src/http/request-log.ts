/**
 * One JSON log line per request, written when the response is done (issue 18, item 7): method,
 * route pattern, URL (secrets censored), status, duration, user id, realm, the Zulip error code of
 * an error answer, and the request id — the caller's `X-Request-Id` when it sent a sane one (so a
 * proxy's id follows the request through), else a fresh UUID. Fastify's own two lines per request
 * are turned off (`disableRequestLogging`). The same hook feeds the request metrics.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";
import type { RealmRow, UserRow } from "../store/types.js";
import { redactUrl } from "./hardening.js";

/** What the router and the error handler learn about a request, for its log line. */
export interface RequestNotes {
  userId?: number;
  realmId?: number;
  /** The realm's subdomain ("" for the root domain). */
  realm?: string;
  errorCode?: string;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Null until something is noted (notesOf). */
    notes: RequestNotes | null;
  }
}

/** A request id from the caller is kept only if it is short and plain (it is echoed and logged). */
const INCOMING_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Fastify's genReqId: the incoming X-Request-Id when sane, a new UUID otherwise. */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The request's notes, created on first use: most requests are never noted until authenticated,
 * and a hook on every request to create them cost more than the notes (issue 21).
 */
function notesOf(request: FastifyRequest): RequestNotes {
  return (request.notes ??= {});
}

/** Records the authenticated user (and realm) of the request. */
export function noteUser(request: FastifyRequest, user: UserRow, realm: RealmRow): void {
  const notes = notesOf(request);
  notes.userId = user.id;
  notes.realmId = realm.id;
  notes.realm = realm.string_id;
}

export function noteErrorCode(request: FastifyRequest, code: string): void {
  notesOf(request).errorCode = code;
}

/** The route pattern ("/api/v1/messages/:message_id"); unmatched paths share one label. */
export function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? "(unmatched)";
}

export interface RequestObserver {
  (method: string, route: string, status: number, seconds: number): void;
}

const NO_NOTES: RequestNotes = {};

/** Whether the logger writes `level` at all. Fastify's logger when logging is off writes nothing and has no such method. */
function writes(log: FastifyBaseLogger, level: "info" | "error"): boolean {
  const enabled = (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return enabled ? enabled.call(log, level) : false;
}

export function installRequestLog(app: FastifyInstance, observe: RequestObserver | null): void {
  app.decorateRequest("notes", null);
  // A callback hook, not an async one: no promise per request (Fastify awaits a returned promise).
  app.addHook("onResponse", (request, reply, done) => {
    const route = routeOf(request);
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    observe?.(request.method, route, status, ms / 1000);
    writeRequestLine(request.log, { method: request.method, route, url: request.url, status, ms, notes: request.notes, ip: () => request.ip });
    done();
  });
}

/** What a request's log line says. */
export interface RequestLine {
  method: string;
  route: string;
  url: string;
  status: number;
  ms: number;
  notes: RequestNotes | null;
  /** The client's address, asked only when the line is written. */
  ip: () => string;
}

/**
 * Writes a request's line at info (errors of the server at error). `log` is the request's logger,
 * bound to its id; or the app's logger and `requestId` for a request served before Fastify
 * (events-long-poll.ts), bound here only when the line is written.
 */
export function writeRequestLine(log: FastifyBaseLogger, line: RequestLine, requestId?: string): void {
  const level = line.status >= 500 ? "error" : "info";
  // The line is built only when it will be written (LOG_LEVEL=warn skips every success).
  if (!writes(log, level)) return;
  const { userId, realmId, realm, errorCode } = line.notes ?? NO_NOTES;
  (requestId === undefined ? log : log.child({ reqId: requestId }))[level](
    {
      method: line.method,
      route: line.route,
      url: redactUrl(line.url),
      status: line.status,
      duration_ms: Math.round(line.ms * 10) / 10,
      ...(userId !== undefined ? { user_id: userId } : {}),
      ...(realmId !== undefined ? { realm_id: realmId, realm } : {}),
      ...(errorCode !== undefined ? { error_code: errorCode } : {}),
      remote_address: line.ip(),
    },
    "request",
  );
}
