/**
 * `buildApp(deps)` builds the whole HTTP application without listening, so tests drive it with
 * `app.inject()` and `main.ts` with a real socket. Tests of the HTTP layer itself pass their own
 * endpoint list (and a small body limit) to exercise the same plumbing without the real API.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Fastify, { LogController, type FastifyInstance } from "fastify";
import formbody from "@fastify/formbody";
import { ENDPOINTS } from "./api/index.js";
import type { AppDeps } from "./deps.js";
import type { AnyEndpoint } from "./http/endpoint.js";
import { installErrorHandlers } from "./http/error-handler.js";
import { installResponseHeaders, loggerOptions, MULTIPART_LIMITS, serverOptions } from "./http/hardening.js";
import { registerEndpoints } from "./http/router.js";
import { registerWebClient } from "./http/web-client.js";
import { registerSessionRoutes } from "./http/session-routes.js";
import { registerPasswordResetRoutes } from "./http/password-reset-routes.js";
import { registerUnsubscribeRoutes } from "./http/unsubscribe-routes.js";
import { registerServerFactsRoutes } from "./http/server-facts-routes.js";
import { registerJoinRoutes } from "./http/join-routes.js";
import { registerEmojiImageRoutes } from "./http/emoji-routes.js";
import { registerAvatarRoutes } from "./http/avatar-routes.js";
import { registerUploadRoutes } from "./http/upload-routes.js";
import { registerExportRoutes } from "./http/export-routes.js";
import { registerVideoCallRoutes } from "./http/video-call-routes.js";
import { Metrics } from "./http/metrics.js";
import { registerOpsRoutes } from "./http/ops-routes.js";
import { installRequestLog, requestIdFor } from "./http/request-log.js";
import { registerMultipart } from "./http/multipart.js";
import { lazyRequestLogger } from "./http/lazy-request-logger.js";
import { longPollPath } from "./http/events-long-poll.js";

/**
 * The largest request body that is parsed whole (form or JSON; files are streamed under the upload
 * limit instead): Django's default DATA_UPLOAD_MAX_MEMORY_SIZE. Parsing costs about 120 ms of the
 * only thread per MiB (mostly garbage collection), so 25 MiB bodies let one request stall every
 * other for seconds (issue 16, F3); no API parameter needs more than a few hundred KiB.
 */
export const MAX_BODY_BYTES = 2.5 * 1024 * 1024;

export interface BuildOptions {
  /** pino logger options (may carry a `stream`) over the hardened defaults, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
  /** The endpoint table to serve; the real API by default. */
  endpoints?: readonly AnyEndpoint[];
  /** Largest accepted form or JSON body in bytes; MAX_BODY_BYTES by default. */
  bodyLimit?: number;
  /** The built web client (issue 10) served at `/`; dist/web under the package root by default. */
  webClientDir?: string;
  /** The process's metrics (main.ts also feeds them event deliveries); a fresh set by default. */
  metrics?: Metrics;
}

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Each app's request callback (the long-poll path, then Fastify), for its other listeners. */
const requestHandlers = new WeakMap<FastifyInstance, RequestHandler>();

/**
 * What the app's HTTP server does with a request: a cluster worker's forwarding server
 * (cluster/queue-forwarding.ts) serves the same way, long-polls before Fastify included.
 */
export function requestHandlerOf(app: FastifyInstance): RequestHandler {
  const handler = requestHandlers.get(app);
  if (!handler) throw new Error("requestHandlerOf: not an app of buildApp");
  return handler;
}

export async function buildApp(deps: AppDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const metrics = opts.metrics ?? new Metrics();
  // GET /events long-polls are taken before Fastify when they are plain (http/events-long-poll.ts).
  // `app.log` is read when a poll is served, after `app` exists.
  const longPoll = longPollPath(deps, () => app.log, (method, route, status, seconds) => metrics.observeRequest(method, route, status, seconds));
  const server = serverOptions(deps.config);
  let serveRequest: RequestHandler | undefined;
  const app = Fastify({
    ...server,
    serverFactory: (handler) => {
      serveRequest = (req, res) => {
        if (!longPoll.take(req, res, handler)) handler(req, res);
      };
      const http = createServer(server.http, serveRequest);
      // What Fastify sets on a server it makes itself (lib/server.js).
      http.keepAliveTimeout = server.keepAliveTimeout;
      http.requestTimeout = server.requestTimeout;
      http.setTimeout(server.connectionTimeout);
      return http;
    },
    logger: opts.logger === false ? false : loggerOptions(deps.config, opts.logger === true ? {} : opts.logger),
    bodyLimit: opts.bodyLimit ?? MAX_BODY_BYTES,
    genReqId: requestIdFor,
    // Each request's logger is made when the request first writes a line (most never do).
    childLoggerFactory: lazyRequestLogger,
    // One line per request, written by request-log.ts once the response is done.
    logController: new LogController({ disableRequestLogging: true }),
    // X-Forwarded-* only from the configured proxies (TRUSTED_PROXIES): a client's own header
    // would otherwise choose the address its rate limits count against.
    trustProxy: deps.config.trustedProxies.length > 0 ? deps.config.trustedProxies : false,
  });
  if (serveRequest) requestHandlers.set(app, serveRequest);
  // Fastify answers 503 to requests that arrive while it closes; so the long-poll path hands them over.
  app.addHook("preClose", (done) => {
    longPoll.close();
    done();
  });
  await app.register(formbody);
  // Without its per-request hooks, which only clean up saved request files (http/multipart.ts).
  await registerMultipart(app, { limits: MULTIPART_LIMITS });
  // Bodies of other types carry no parameters for us (Zulip reads only form data); ignore them.
  app.addContentTypeParser("*", (_request, payload, done) => {
    payload.resume();
    payload.on("end", () => done(null, undefined));
    payload.on("error", (err) => done(err, undefined));
  });
  metrics.watch(deps);
  installRequestLog(app, (method, route, status, seconds) => metrics.observeRequest(method, route, status, seconds));
  installResponseHeaders(app);
  installErrorHandlers(app);
  registerEndpoints(app, deps, opts.endpoints ?? ENDPOINTS);
  registerUploadRoutes(app, deps);
  registerExportRoutes(app, deps);
  registerVideoCallRoutes(app, deps);
  registerSessionRoutes(app, deps);
  registerPasswordResetRoutes(app, deps);
  registerUnsubscribeRoutes(app, deps);
  registerServerFactsRoutes(app, deps);
  registerJoinRoutes(app, deps);
  registerEmojiImageRoutes(app, deps);
  registerAvatarRoutes(app, deps);
  registerOpsRoutes(app, deps, metrics);
  await registerWebClient(app, opts.webClientDir);
  return app;
}
