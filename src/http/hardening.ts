/**
 * Transport-level protections (issue 9, item 5): size caps, timeouts that stop slow clients without
 * cutting GET /events long-polls short, security headers on every response, a request id on every
 * response and log line, and logs that never carry credentials.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServerResponse } from "node:http";
import type { Config } from "../config.js";
import { ApiError } from "../errors.js";
import { errorBody } from "./respond.js";

/** Headers (request line included) beyond this are refused 431 by Node before any of our code runs. */
const MAX_HEADER_BYTES = 16 * 1024;
/**
 * Longest path parameter. Upload file names reach the router as path parameters
 * (`/user_uploads/temporary/:token/:filename`): 255 bytes, up to 3 characters each when
 * percent-encoded. Longer values are refused 414.
 */
const MAX_PARAM_LENGTH = 1024;
/** A client must finish sending its headers this soon after its request starts (slowloris). */
const HEADERS_TIMEOUT_MS = 20_000;
/**
 * A whole request (headers and body) must arrive within this: 25 MiB bodies at under 2 Mbit/s, a
 * 100 MiB upload at about 7 Mbit/s; slower links upload in resumable chunks (tus). It does not
 * bound the response, so a parked long-poll is unaffected.
 */
const REQUEST_TIMEOUT_MS = 120_000;
/** An idle keep-alive connection is closed after this (above the usual 60 s of proxies in front). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/**
 * A socket with no traffic either way for this long is destroyed. A long-poll is silent while
 * parked, for up to the heartbeat period (zulip-facts section f), so the margin is added to it.
 */
const IDLE_MARGIN_MS = 60_000;

/** Multipart bodies: at most 1000 fields of 2 MiB, 10 files, 20 headers a part. */
export const MULTIPART_LIMITS = { fieldNameSize: 100, fieldSize: 2 * 1024 * 1024, fields: 1000, files: 10, headerPairs: 20 };

/** Fastify server options carrying the caps and timeouts above. */
export function serverOptions(config: Config) {
  return {
    http: { maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: HEADERS_TIMEOUT_MS },
    // "/api/v1//streams/5/email_address" is what the Python bindings request when a caller passes a
    // path with a leading slash (zulip-terminal does): Zulip's nginx merges the slashes, so we do.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreDuplicateSlashes: true },
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionTimeout: config.eventHeartbeatSeconds * 1000 + IDLE_MARGIN_MS,
    frameworkErrors: answerRoutingError,
  };
}

const ROUTING_ERRORS: Record<string, string> = { FST_ERR_MAX_PARAM_LENGTH: "URI Too Long", FST_ERR_BAD_URL: "Invalid URL" };

/**
 * Errors the router raises before any route or hook runs (a malformed percent-escape, a parameter
 * over MAX_PARAM_LENGTH): Zulip's envelope and the usual headers instead of Fastify's own body.
 */
function answerRoutingError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  setResponseHeaders(request, reply);
  const status = error.statusCode ?? 400;
  const message = ROUTING_ERRORS[error.code] ?? error.message;
  void reply.code(status).send(errorBody(new ApiError(message, "BAD_REQUEST", status)));
}

/** Parameters whose values are credentials (login and password change, JWT and push tokens). */
const SECRET_PARAMS = ["password", "old_password", "new_password", "api_key", "token"];

/** Pino paths censored wherever a log call passes such an object (request bodies, headers). */
const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "headers.cookie",
  ...SECRET_PARAMS.flatMap((name) => [name, `*.${name}`]),
];

/**
 * A URL fit for the log: secret query parameters censored (Zulip reads parameters from the query
 * string for every method, so a client may put a password there), and the bearer token of a
 * credential-free upload URL too.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  const path = (q < 0 ? url : url.slice(0, q)).replace(/^(\/user_uploads\/temporary\/)[^/]+/, "$1[Redacted]");
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // a malformed name is logged as sent
      }
      return eq >= 0 && SECRET_PARAMS.includes(decoded) ? `${name}=[Redacted]` : pair;
    });
  return `${path}?${query.join("&")}`;
}

/** pino options: the configured level, censored secrets, and Fastify's request shape with a safe URL. */
export function loggerOptions(config: Config, override: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: "[Redacted]" },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    ...override,
  };
}

/**
 * Sent with every response unless the route sets its own (uploaded files carry their own CSP).
 * The API answers JSON only, so its CSP allows nothing at all.
 */
const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/**
 * Headers go onto the raw response as soon as a request arrives, so they also reach responses
 * written by hijacking handlers (tus uploads); anything a route sets later takes precedence.
 */
export function installResponseHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    setResponseHeaders(request, reply);
    done();
  });
}

const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

function setResponseHeaders(request: FastifyRequest, reply: FastifyReply): void {
  setSecurityHeaders(reply.raw, request.id);
}

/** The headers every response carries, on a raw response (also used before Fastify: events-long-poll.ts). */
export function setSecurityHeaders(raw: ServerResponse, requestId: string): void {
  for (const [name, value] of SECURITY_HEADER_ENTRIES) raw.setHeader(name, value);
  raw.setHeader("X-Request-Id", requestId);
}
