/**
 * `buildApp(deps)` builds the whole HTTP application without listening, so tests drive it with
 * `app.inject()` and `main.ts` with a real socket. Tests of the HTTP layer itself pass their own
 * endpoint list (and a small body limit) to exercise the same plumbing without the real API.
 */
import Fastify, { type FastifyInstance } from "fastify";
import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import { randomUUID } from "node:crypto";
import { ENDPOINTS } from "./api/index.js";
import type { AppDeps } from "./deps.js";
import type { AnyEndpoint } from "./http/endpoint.js";
import { installErrorHandlers } from "./http/error-handler.js";
import { installResponseHeaders, loggerOptions, MULTIPART_LIMITS, serverOptions } from "./http/hardening.js";
import { registerEndpoints } from "./http/router.js";
import { registerWebClient } from "./http/web-client.js";
import { registerSessionRoutes } from "./http/session-routes.js";
import { registerJoinRoutes } from "./invites/join-routes.js";
import { registerEmojiImageRoutes } from "./realm-emoji/image-routes.js";
import { registerAvatarRoutes } from "./avatars/routes.js";
import { registerUploadRoutes } from "./uploads/routes.js";

/** Zulip's DATA_UPLOAD_MAX_MEMORY_SIZE: the largest non-file request body. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;

export interface BuildOptions {
  /** pino logger options (may carry a `stream`) over the hardened defaults, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
  /** The endpoint table to serve; the real API by default. */
  endpoints?: readonly AnyEndpoint[];
  /** Largest accepted request body in bytes; Zulip's 25 MiB by default. */
  bodyLimit?: number;
  /** The built web client (issue 10) served at `/`; dist/web under the package root by default. */
  webClientDir?: string;
}

export async function buildApp(deps: AppDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverOptions(deps.config),
    logger: opts.logger === false ? false : loggerOptions(deps.config, opts.logger === true ? {} : opts.logger),
    bodyLimit: opts.bodyLimit ?? MAX_BODY_BYTES,
    genReqId: () => randomUUID(),
    // Zulip clients send arbitrary Host headers (subdomains); trust the proxy's X-Forwarded-For.
    trustProxy: true,
  });
  await app.register(formbody);
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  // Bodies of other types carry no parameters for us (Zulip reads only form data); ignore them.
  app.addContentTypeParser("*", (_request, payload, done) => {
    payload.resume();
    payload.on("end", () => done(null, undefined));
    payload.on("error", (err) => done(err, undefined));
  });
  installResponseHeaders(app);
  installErrorHandlers(app);
  registerEndpoints(app, deps, opts.endpoints ?? ENDPOINTS);
  registerUploadRoutes(app, deps);
  registerSessionRoutes(app, deps);
  registerJoinRoutes(app, deps);
  registerEmojiImageRoutes(app, deps);
  registerAvatarRoutes(app, deps);
  await registerWebClient(app, opts.webClientDir);
  return app;
}
